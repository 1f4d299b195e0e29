// The plan's cost estimate against what a real run costs. `worlds tools run --dry-run --model ...` prints the
// dollars it expects; the same run on the scripted model (`worlds model serve --script`, which reports usage as
// providers bill it) prints what was spent. Prints both and their ratio for each round; the e2e test
// (test/node/e2e-tools-plan.test.ts) only bounds the ratio within 2x.
// Usage: node bench/tools-plan.mjs [--rounds N] [--runs K] [--tasks T]   (after npm run build)
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const arg = (name, dflt) => (process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : dflt);
const rounds = arg("--rounds", 2);
const runs = arg("--runs", 2);
const tasks = arg("--tasks", 4);
const cli = join(ROOT, "bin", "worlds.mjs");

/** The scripted model server, started through the CLI; resolves with its environment and a stop function. */
function scriptedModel() {
  const child = spawn(process.execPath, [cli, "model", "serve", "--script", join(ROOT, "test/fixtures/models/tools-plan.script.yaml")], { stdio: ["ignore", "pipe", "ignore"] });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (b) => {
      out += b;
      const m = /OPENAI_BASE_URL=(\S+)/.exec(out);
      if (m) resolve({ base: m[1], stop: () => child.kill("SIGTERM") });
    });
    child.on("exit", (code) => reject(new Error(`worlds model serve exited ${code}: ${out}`)));
  });
}

const model = await scriptedModel();
const dir = mkdtempSync(join(tmpdir(), "worlds-bench-plan-"));
const env = { ...process.env, OPENAI_BASE_URL: model.base, OPENAI_API_KEY: "sk-bench-plan", NO_COLOR: "1" };
const worlds = (args, opts = {}) => spawnSync(process.execPath, [cli, ...args], { cwd: dir, env, encoding: "utf8", timeout: 900_000, ...opts });
try {
  copyFileSync(join(ROOT, "test/fixtures/tools/orders.openai.json"), join(dir, "tools.json"));
  writeFileSync(join(dir, "prices.json"), JSON.stringify({ version: 1, models: { "openai:planner": { input: 2, output: 8 } } }));
  const init = worlds(["tools", "init", "--own-file", "tools.json", "--own-name", "acme", "--own-read", "get_order", "--own-read", "search_orders", "--own-read", "list_channels"]);
  if (init.status !== 0) throw new Error(init.stderr);
  const config = join(dir, "worlds", "tools.yaml");
  writeFileSync(config, readFileSync(config, "utf8").replace("tasks_per_arm: 10", `tasks_per_arm: ${tasks}`).replace(/arms:\n(  - .*\n)+/, "arms:\n  - call\n"));
  const flags = ["--runs", String(runs), "--model", "openai:planner", "--model-prices", "prices.json"];
  const load0 = loadavg()[0];
  console.log(`tools run plan vs spend: ${tasks} call-form tasks x ${runs} runs on the scripted model (input $2, output $8 per million tokens), ${rounds} rounds`);
  const ratios = [];
  for (let r = 0; r < rounds; r++) {
    const plan = worlds(["tools", "run", "--dry-run", ...flags]);
    const estimate = Number(/cost {8}about \$([0-9.]+) expected/.exec(plan.stdout)?.[1]);
    const run = worlds(["tools", "run", "--server", "auto", ...flags]);
    const spent = Number(/model agent openai:planner: \d+ episodes, .*?\$([0-9.]+)/.exec(run.stderr)?.[1]);
    if (!(estimate > 0) || !(spent > 0)) throw new Error(`no figures (dry run exit ${plan.status}, run exit ${run.status}):\n${plan.stdout}${run.stderr.slice(-1500)}`);
    ratios.push(estimate / spent);
    console.log(`  round ${r + 1}: estimate $${estimate.toFixed(4)}, spent $${spent.toFixed(4)}, estimate/spent ${(estimate / spent).toFixed(3)}`);
  }
  console.log(`  load ${load0.toFixed(1)} -> ${loadavg()[0].toFixed(1)}; the ratio depends on tokens only, not on load`);
} finally {
  model.stop();
  rmSync(dir, { recursive: true, force: true });
}
