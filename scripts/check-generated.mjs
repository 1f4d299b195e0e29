// `npm run check:generated`: the committed starter library must be exactly what the generator writes, and every
// pack must compile (with the real tasks compiler) to the library rubric's keys, decoy for decoy. Exits 1 and
// lists every difference otherwise, so CI catches a hand edit, a stale regeneration or compiler drift.
//
//   node scripts/check-generated.mjs [--root DIR]   (DIR: the tree to check; default this checkout)
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SEED = "seeds/acme-prod-library.json";
const RUBRIC = "rubrics/acme-prod-library.json";

function walk(dir) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...walk(p));
    else out.push(p);
  }
  return out;
}

/** The first line where two texts differ, for a message a person can act on. */
function firstDifference(a, b) {
  const la = a.split("\n");
  const lb = b.split("\n");
  for (let i = 0; i < Math.max(la.length, lb.length); i++) if (la[i] !== lb[i]) return i + 1;
  return 0;
}

/** Regenerates into a temporary directory and compares byte for byte. Returns the generated paths. */
function compareWithGenerator(root, problems) {
  const tmp = mkdtempSync(join(tmpdir(), "worlds-gen-"));
  try {
    const r = spawnSync(process.execPath, [join(repo, "scripts", "seeds-gen", "main.mjs"), "--out", tmp, "--quiet"], { encoding: "utf8" });
    if (r.status !== 0) {
      problems.push(`the generator failed (exit ${r.status}):\n${(r.stderr || r.stdout).trim()}`);
      return [];
    }
    const generated = walk(tmp).map((p) => relative(tmp, p).split("\\").join("/")).sort();
    for (const rel of generated) {
      const want = readFileSync(join(tmp, rel));
      const path = join(root, rel);
      if (!existsSync(path)) {
        problems.push(`${rel}: missing; run npm run seeds:gen`);
        continue;
      }
      const have = readFileSync(path);
      if (!have.equals(want)) problems.push(`${rel}: differs from the generator's output from line ${firstDifference(have.toString("utf8"), want.toString("utf8"))}; run npm run seeds:gen (and edit scripts/seeds-gen, not the file)`);
    }
    // a pack nobody generates would be graded without ever being checked against the library. Task families
    // (packs/families/) are written by hand and checked by `worlds family validate` and its tests instead.
    const packsDir = join(root, "packs");
    if (existsSync(packsDir)) {
      for (const p of walk(packsDir)) {
        const rel = relative(root, p).split("\\").join("/");
        if (rel.startsWith("packs/families/")) continue;
        if (!generated.includes(rel)) problems.push(`${rel}: not written by the generator; remove it or add it to scripts/seeds-gen`);
      }
    }
    return generated;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** The tasks compiler, bundled from source with esbuild (TypeScript cannot be imported by Node directly). */
async function loadCompiler() {
  const entry = join(repo, "src", "core", "kinds", "account", "tasks", "index.ts");
  if (!existsSync(entry)) throw new Error(`the tasks compiler (${relative(repo, entry)}) is missing`);
  const { build } = await import("esbuild");
  const outDir = join(repo, "node_modules", ".cache", "worlds-check-generated");
  mkdirSync(outDir, { recursive: true });
  const outfile = join(outDir, `tasks-${process.pid}.mjs`);
  await build({ entryPoints: [entry], bundle: true, format: "esm", platform: "node", packages: "external", outfile, logLevel: "error" });
  try {
    return await import(pathToFileURL(outfile).href);
  } finally {
    rmSync(outfile, { force: true });
  }
}

function canonical(value) {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object") return Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonical(value[k])]));
  return value;
}

/** Every pack compiles against the library seed, and each compiled ticket is the library's key for it. */
async function comparePacks(root, packs, problems) {
  const compiler = await loadCompiler();
  const seed = JSON.parse(readFileSync(join(root, SEED), "utf8"));
  const rubric = JSON.parse(readFileSync(join(root, RUBRIC), "utf8"));
  const library = new Map(rubric.tickets.map((t) => [t.label, t]));
  let tasks = 0;
  for (const rel of packs) {
    const text = readFileSync(join(root, rel), "utf8");
    const result = await compiler.compileTasks({ text, fileName: rel, seed });
    if (!result.ok) {
      for (const p of result.problems) problems.push(compiler.formatProblem ? compiler.formatProblem(p) : `${rel}:${p.line}:${p.column}: ${p.message}`);
      continue;
    }
    if (result.rubric.mode !== "isolated") problems.push(`${rel}: a pack must be an isolated-mode file`);
    if (result.rubric.budget !== null) problems.push(`${rel}: a pack carries no day budget`);
    for (const t of result.rubric.tickets) {
      tasks++;
      const key = library.get(t.label);
      if (!key) {
        problems.push(`${rel}: task ${t.label} is not a ticket of the library rubric`);
        continue;
      }
      if (key.trap_class === "collision") problems.push(`${rel}: task ${t.label} is a collision case; those stay in the full inbox`);
      const have = JSON.stringify(canonical({ ...t, id: 0 }));
      const want = JSON.stringify(canonical({ ...key, id: 0 }));
      if (have !== want) {
        const fields = Object.keys({ ...t, ...key }).filter((f) => f !== "id" && JSON.stringify(canonical(t[f])) !== JSON.stringify(canonical(key[f])));
        problems.push(`${rel}: task ${t.label} compiles to a different key than the library's (${fields.map((f) => `${f}: ${JSON.stringify(t[f])} vs ${JSON.stringify(key[f])}`).join("; ")})`);
      }
    }
  }
  return tasks;
}

async function main(argv) {
  const i = argv.indexOf("--root");
  const root = i >= 0 ? resolve(argv[i + 1] ?? ".") : repo;
  const problems = [];
  const generated = compareWithGenerator(root, problems);
  const packs = generated.filter((p) => p.startsWith("packs/") && p.endsWith(".yaml"));
  let tasks = 0;
  if (generated.length && existsSync(join(root, SEED)) && existsSync(join(root, RUBRIC))) {
    try {
      tasks = await comparePacks(root, packs, problems);
    } catch (err) {
      problems.push(`could not compile the packs: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  if (problems.length) {
    console.error(`check:generated: ${problems.length} problem(s)`);
    for (const p of problems) console.error(`  ${p}`);
    return 1;
  }
  console.log(`check:generated: ${generated.length} files match the generator; ${packs.length} packs (${tasks} tasks) compile to the library rubric's keys`);
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
