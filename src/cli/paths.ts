// Where the package's own files are (the Worker bundle, migrations, bundled examples), whether the CLI runs
// bundled from dist/cli or from source under vitest.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

let cached: string | null = null;

export function packageRoot(): string {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, "package.json");
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, "utf8")) as { name?: string }).name === "worlds") return (cached = dir);
    const up = dirname(dir);
    if (up === dir) throw new Error("worlds: cannot find the package root (package.json named 'worlds') above " + fileURLToPath(import.meta.url));
    dir = up;
  }
}

/** This installation's version, from its package.json (what `worlds init` pins a project to). */
export function packageVersion(): string {
  const version = (JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as { version?: unknown }).version;
  if (typeof version !== "string") throw new Error(`worlds: ${join(packageRoot(), "package.json")} has no version`);
  return version;
}
