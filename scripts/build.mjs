// Builds the artefacts the package ships: the Worker bundle Miniflare runs (dist/worker), the Miniflare options
// wrangler derives from wrangler.toml (so an installed package starts its server without wrangler), and the Node
// CLI (dist/cli). Runs from `prepare`, so `npm ci` in a checkout and `npm pack` both leave them built; installing
// the packed tarball runs nothing.
import { build } from "esbuild";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const quiet = process.argv.includes("--quiet");

if (!existsSync(join(root, "src", "index.ts"))) process.exit(0); // nothing to build yet (fresh scaffold)

rmSync(join(root, "dist", "worker"), { recursive: true, force: true });
// Minified (names kept: wrangler's keep_names defaults to true; the source map is beside it): Miniflare copies
// the bundle into the runtime's configuration at every start of the local server, at a cost that grows with its
// size (bench/server-startup.mjs, docs/performance.md), and deployed it is what Cloudflare would load anyway.
execFileSync(
  process.execPath,
  [join(root, "node_modules", "wrangler", "bin", "wrangler.js"), "deploy", "--dry-run", "--minify", "--outdir", "dist/worker", "--config", "wrangler.toml"],
  { cwd: root, stdio: quiet ? "ignore" : ["ignore", "ignore", "inherit"], env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" } },
);

// The same file, keyed the same way (the sha256 of wrangler.toml's text), that src/cli/server/local.ts computes
// and caches on a first start when it is missing: written here, the installed package never imports wrangler.
{
  const configPath = join(root, "wrangler.toml");
  const { unstable_getMiniflareWorkerOptions } = await import("wrangler");
  const { workerOptions } = unstable_getMiniflareWorkerOptions(configPath);
  const hash = createHash("sha256").update(readFileSync(configPath, "utf8")).digest("hex");
  writeFileSync(join(root, "dist", "worker", ".miniflare-options.json"), JSON.stringify({ hash, options: JSON.parse(JSON.stringify(workerOptions)) }));
}

if (existsSync(join(root, "src", "cli", "main.ts"))) {
  await build({
    entryPoints: [join(root, "src", "cli", "main.ts")],
    outfile: join(root, "dist", "cli", "main.mjs"),
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    sourcemap: true,
    // zod and yaml are bundled: resolving and compiling zod's hundred-odd modules was most of the CLI's start-up
    // (bench/harness-overhead.mjs pays it once per passk). miniflare and wrangler stay external: they are loaded
    // only by the commands that start a local server, and they bring native binaries. So does stripe (a
    // dependency, imported only by `seed import --from-stripe`): bundled, its 820 KB were parsed at every start.
    external: ["miniflare", "wrangler", "stripe"],
    logLevel: "warning",
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
}
