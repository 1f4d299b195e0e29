// Builds the artefacts the package ships: the Worker bundle Miniflare runs (dist/worker), the Miniflare options
// wrangler derives from wrangler.toml (so an installed package starts its server without wrangler), and the Node
// CLI (dist/cli). Runs from `prepare`, so `npm ci` in a checkout and `npm pack` both leave them built; installing
// the packed tarball runs nothing.
import { build } from "esbuild";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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
  // Chunk names carry a hash: an earlier build's would linger, and be packed.
  rmSync(join(root, "dist", "cli"), { recursive: true, force: true });
  await build({
    entryPoints: [join(root, "src", "cli", "main.ts")],
    // Split at the registry's lazy commands (src/cli/commands/lazy.ts): main.mjs and a chunk per command loaded late.
    outdir: join(root, "dist", "cli"),
    outExtension: { ".js": ".mjs" },
    splitting: true,
    chunkNames: "chunks/[name]-[hash]",
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
    // The tokenizer's ranks as text, as the Worker gets them (wrangler.toml's rule; src/core/kinds/tools/dials/tokens.ts).
    loader: { ".tiktoken": "text" },
    logLevel: "warning",
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
}

// The package's library entry (`import { runTask } from "worlds"`): one runtime-neutral ES module, and the
// declarations of what it exports. tsc emits a declaration per source file; only those the entry's reach (all of
// them plain types with no imports of other packages, src/core/episode-api/shapes.ts) are kept, their relative
// specifiers given the ".js" a consumer's node16/nodenext resolution requires.
if (existsSync(join(root, "src", "package", "index.ts"))) {
  const libDir = join(root, "dist", "lib");
  rmSync(libDir, { recursive: true, force: true });
  await build({
    entryPoints: [join(root, "src", "package", "index.ts")],
    outfile: join(libDir, "index.mjs"),
    bundle: true,
    platform: "neutral",
    format: "esm",
    target: "es2022",
    // Minified: most of it is zod (the answers are read through the same schemas as everywhere else).
    minify: true,
    // loadTasks(file) imports node:fs only when called; every other export runs without it.
    external: ["node:*"],
    sourcemap: true,
    logLevel: "warning",
  });
  const ts = (await import("typescript")).default;
  const entry = join(root, "src", "package", "index.ts");
  const program = ts.createProgram([entry], {
    declaration: true,
    emitDeclarationOnly: true,
    strict: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ["lib.es2023.d.ts", "lib.dom.d.ts"],
    types: [],
  });
  const emitted = new Map();
  const result = program.emit(undefined, (name, text) => emitted.set(name.replace(/\\/g, "/"), text));
  if (result.emitSkipped) throw new Error("build: the library's declarations could not be emitted");
  const srcDir = join(root, "src").replace(/\\/g, "/");
  const pending = [entry.replace(/\\/g, "/").replace(/\.ts$/, ".d.ts")];
  const kept = new Set();
  while (pending.length) {
    const file = pending.pop();
    if (kept.has(file)) continue;
    const text = emitted.get(file);
    if (text === undefined) throw new Error(`build: no declaration emitted for ${file}`);
    kept.add(file);
    const out = text.replace(/(from\s+|import\()(["'])([^"']+)\2/g, (whole, lead, q, spec) => {
      if (!spec.startsWith(".")) throw new Error(`build: ${file} declares a type from the package '${spec}'; the library's declarations must stand alone`);
      pending.push(join(dirname(file), `${spec}.d.ts`).replace(/\\/g, "/"));
      return `${lead}${q}${spec}.js${q}`;
    });
    const target = join(libDir, "types", file.slice(srcDir.length + 1));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, out);
  }
}
