// Bundles a runtime-neutral TypeScript module of the project (src/core/...) with esbuild into a temporary ESM file
// and imports it, so a benchmark measures the same code the CLI and the Worker run, without a separate build.
import { mkdirSync, mkdtempSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

export async function importCore(entries) {
  // Inside the project, so the bundle's package imports resolve to its node_modules.
  const cache = join(root, "node_modules", ".cache");
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, "worlds-bench-"));
  const contents = entries.map((e, i) => `export * as m${i} from ${JSON.stringify(join(root, e))};`).join("\n");
  await build({ stdin: { contents, resolveDir: root, loader: "ts" }, bundle: true, platform: "node", format: "esm", packages: "external", outfile: join(dir, "core.mjs"), logLevel: "error" });
  const mod = await import(pathToFileURL(join(dir, "core.mjs")).href);
  return entries.map((_, i) => mod[`m${i}`]);
}
