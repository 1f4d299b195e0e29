// The package from a user's side, before and after it was made publishable (issue 20): the tarball `npm pack`
// makes, the size it installs to and how long `npm install <tarball>` takes in a fresh project, and whether the
// installed CLI runs. "Before" is packed in this same run from this checkout with the package.json of the commit
// before the change (no `files`, wrangler and the bundled libraries as runtime dependencies); "after" is the
// current one. Installs go through a loopback stand-in registry (bench/lib/local-registry.mjs) with every
// dependency from npm's cache, so the times compare installs, not the network. Needs `npm run build` first.
// Usage: node bench/package-install.mjs [--rounds N]   (default 2; the median install time is printed)
import { execFile, execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, statSync, readdirSync, writeFileSync, existsSync, lstatSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { registryEnv, startLocalRegistry } from "./lib/local-registry.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const run = promisify(execFile);
const rounds = Number(process.argv[process.argv.indexOf("--rounds") + 1]) || 2;
const BEFORE_COMMIT = "1affaf9155402c0d1d2feff25eaf59b09524a435^";

if (!existsSync(join(root, "dist", "cli", "main.mjs"))) throw new Error("run npm run build first");

/** A copy of the checkout's tracked files plus dist/, with the given package.json, to pack from. */
function stage(pkgJson) {
  const dir = mkdtempSync(join(tmpdir(), "worlds-stage-"));
  for (const f of execFileSync("git", ["ls-files"], { cwd: root, encoding: "utf8" }).split("\n").filter(Boolean)) {
    if (!existsSync(join(root, f))) continue;
    mkdirSync(dirname(join(dir, f)), { recursive: true });
    cpSync(join(root, f), join(dir, f));
  }
  cpSync(join(root, "dist"), join(dir, "dist"), { recursive: true });
  writeFileSync(join(dir, "package.json"), pkgJson);
  return dir;
}

function duBytes(path) {
  const st = lstatSync(path);
  if (!st.isDirectory()) return st.size;
  let n = 0;
  for (const e of readdirSync(path)) n += duBytes(join(path, e));
  return n;
}

async function pack(dir) {
  const out = mkdtempSync(join(tmpdir(), "worlds-tgz-"));
  const [info] = JSON.parse((await run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", out], { cwd: dir, maxBuffer: 64 << 20 })).stdout);
  return { file: join(out, info.filename), files: info.entryCount, size: statSync(join(out, info.filename)).size, unpacked: info.unpackedSize };
}

async function install(tarball, env) {
  const dir = mkdtempSync(join(tmpdir(), "worlds-user-"));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "user-project", private: true }));
  const t = process.hrtime.bigint();
  await run("npm", ["install", "--save-dev", tarball], { cwd: dir, env });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  const cli = await run(process.execPath, [join(dir, "node_modules", "worlds", "bin", "worlds.mjs"), "--help"], { cwd: dir }).then(() => true, () => false);
  return { ms, bytes: duBytes(join(dir, "node_modules")), packages: readdirSync(join(dir, "node_modules")).length, wrangler: existsSync(join(dir, "node_modules", "wrangler")), cli };
}

const before = await pack(stage(execFileSync("git", ["show", `${BEFORE_COMMIT}:package.json`], { cwd: root, encoding: "utf8" })));
const after = await pack(stage(readFileSync(join(root, "package.json"), "utf8")));
const cache = execFileSync("npm", ["config", "get", "cache"], { encoding: "utf8" }).trim();
const registry = await startLocalRegistry({ lockfile: join(root, "package-lock.json"), tarballs: [], cache });
const env = registryEnv(registry.url);
const results = { before: [], after: [] };
try {
  // Alternating, so a change in the machine's load falls on both.
  for (let i = 0; i < rounds; i++) {
    results.before.push(await install(before.file, env));
    results.after.push(await install(after.file, env));
  }
} finally {
  await registry.stop();
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mb = (b) => `${(b / 1e6).toFixed(1)} MB`;
const row = (name, p, r) =>
  `${name.padEnd(7)} tarball ${mb(p.size).padStart(8)} (${p.files} files, ${mb(p.unpacked)} unpacked) · installed ${mb(r[0].bytes).padStart(8)} in ${String(r[0].packages).padStart(3)} top-level packages · install ${(median(r.map((x) => x.ms)) / 1000).toFixed(1)} s (median of ${r.length}) · wrangler installed: ${r[0].wrangler ? "yes" : "no"} · the CLI runs: ${r[0].cli ? "yes" : "no"}`;
console.log(`date ${new Date().toISOString()} · load ${loadavg().map((l) => l.toFixed(2)).join(" ")} · node ${process.version}`);
console.log(row("before", before, results.before));
console.log(row("after", after, results.after));
const b = results.before[0];
const a = results.after[0];
console.log(`after/before: tarball ${(after.size / before.size).toFixed(2)} · installed ${(a.bytes / b.bytes).toFixed(2)} · install time ${(median(results.after.map((x) => x.ms)) / median(results.before.map((x) => x.ms))).toFixed(2)}`);
