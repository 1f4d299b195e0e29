#!/usr/bin/env node
// Thin launcher: the CLI is bundled to dist/cli by `npm run build` (run by `prepare` on `npm ci`).
import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { dirname, join } from "node:path";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const entry = join(root, "dist", "cli", "main.mjs");
if (!existsSync(entry)) {
  process.stderr.write("worlds: the CLI is not built yet. Run `npm run build` (or `npm ci`) in " + root + "\n");
  process.exit(2);
}
const { main } = await import(pathToFileURL(entry).href);
process.exitCode = await main(process.argv.slice(2));
