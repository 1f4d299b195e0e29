// Verdicts that do not move with load (issue 11, item 3): `worlds passk --server auto` with the careful reference
// agent on packs/refunds.yaml, as a user runs it, first at --concurrency 1 (the baseline), then at each
// concurrency asked for, about --episodes episodes each. It counts infrastructure errors and compares every
// episode's verdict, pass and dollars wrong with the baseline's for the same task. The agent is deterministic,
// so any difference is the harness's doing. A benchmark rather than a test: at 1,000 episodes it runs for most
// of an hour on the 2-core machine.
// Usage: node bench/passk-reliability.mjs [--episodes N] [--concurrency 2,8] [--baseline-runs R] [--json FILE]
// (after `npm run build`). Exits 1 when any run had an infrastructure error or a verdict that differs.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { fmt } from "./lib/server.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const arg = (name) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const episodes = Number(arg("--episodes") ?? 1000);
const levels = (arg("--concurrency") ?? "2,8").split(",").map(Number);
const baselineRuns = Number(arg("--baseline-runs") ?? 2);
const jsonOut = arg("--json");
const TASKS = "packs/refunds.yaml";
const AGENT = [process.execPath, "examples/agents/careful.mjs"];
const dir = mkdtempSync(join(tmpdir(), "worlds-bench-reliability-"));

function passk(runs, concurrency) {
  const out = join(dir, `c${concurrency}-r${runs}.json`);
  const args = ["bin/worlds.mjs", "passk", "--server", "auto", "--tasks", TASKS, "--runs", String(runs), "--concurrency", String(concurrency), "--json-file", out, "--", ...AGENT];
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const load0 = loadavg()[0];
    const child = spawn(process.execPath, args, { cwd: root, stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    child.stderr.on("data", (d) => (err = (err + d).slice(-20_000)));
    child.on("error", reject);
    child.on("close", (code) => {
      let results;
      try {
        results = JSON.parse(readFileSync(out, "utf8"));
      } catch {
        return reject(new Error(`passk --concurrency ${concurrency} exited ${code} with no results:\n${err}`));
      }
      resolve({ code, ms: performance.now() - t0, load: [load0, loadavg()[0]], results, stderrTail: err.split("\n").slice(-5).join("\n") });
    });
  });
}

/** Every episode as [task, verdict, passed, dollars wrong], and the infrastructure errors with their messages. */
function episodesOf(results) {
  const rows = [];
  for (const run of results.runs) for (const w of run.worlds) rows.push({ run: run.index, task: w.task, outcome: JSON.stringify([w.verdict, w.passed, w.dollars_wrong_cents]), verdict: w.verdict, note: w.infra_error ? `(${w.infra_error.stage}): ${w.infra_error.message}` : "" });
  return rows;
}

const tasksInFile = (results) => results.crash_test.tasks.length;

console.log(`passk reliability: ${TASKS} with careful, --server auto, about ${episodes} episodes at --concurrency ${levels.join(", ")}; baseline ${baselineRuns} run(s) at --concurrency 1`);
console.log(`load average at start: ${loadavg().map((l) => fmt(l, 2)).join(" ")}`);

const base = await passk(baselineRuns, 1);
const baseRows = episodesOf(base.results);
const expected = new Map();
let baseUnstable = 0;
for (const r of baseRows) {
  if (r.verdict === "infra_error") continue;
  if (expected.has(r.task) && expected.get(r.task) !== r.outcome) baseUnstable++;
  expected.set(r.task, r.outcome);
}
const baseInfra = base.results.crash_test.infra_errors.count;
const tasks = tasksInFile(base.results);
console.log(`baseline: ${baseRows.length} episodes in ${fmt(base.ms / 1000)} s, ${baseInfra} infrastructure errors, ${baseUnstable} task(s) whose verdict moved between baseline runs`);

const rows = [{ concurrency: 1, episodes: baseRows.length, infra: baseInfra, differ: baseUnstable, ms: base.ms, load: base.load, code: base.code }];
for (const c of levels) {
  const runs = Math.max(1, Math.ceil(episodes / tasks));
  const got = await passk(runs, c);
  const eps = episodesOf(got.results);
  const infra = got.results.crash_test.infra_errors.count;
  const differ = eps.filter((e) => e.verdict !== "infra_error" && expected.has(e.task) && expected.get(e.task) !== e.outcome);
  const unknown = eps.filter((e) => !expected.has(e.task)).length;
  rows.push({ concurrency: c, episodes: eps.length, infra, differ: differ.length, unknown, ms: got.ms, load: got.load, code: got.code, infraByStage: got.results.crash_test.infra_errors.by_stage });
  console.log(`--concurrency ${c}: ${eps.length} episodes (${runs} runs x ${tasks} tasks) in ${fmt(got.ms / 1000)} s, ${infra} infrastructure errors, ${differ.length} verdicts unlike the baseline's`);
  for (const d of differ.slice(0, 5)) console.log(`  run ${d.run} ${d.task}: ${d.outcome} (baseline ${expected.get(d.task)})`);
  for (const e of eps.filter((x) => x.verdict === "infra_error").slice(0, 5)) console.log(`  run ${e.run} ${e.task}: infrastructure error ${e.note}`);
}

console.log("\n| --concurrency | episodes | infrastructure errors | verdicts unlike --concurrency 1 | wall time | episodes/s | load average (start -> end) |");
console.log("|---|---|---|---|---|---|---|");
for (const r of rows)
  console.log(`| ${r.concurrency}${r.concurrency === 1 ? " (baseline)" : ""} | ${r.episodes.toLocaleString("en-US")} | ${r.infra} | ${r.concurrency === 1 ? `${r.differ} (between its runs)` : r.differ} | ${fmt(r.ms / 1000)} s | ${fmt(r.episodes / (r.ms / 1000), 2)} | ${fmt(r.load[0], 2)} -> ${fmt(r.load[1], 2)} |`);
if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ tasks: TASKS, episodes, baselineRuns, rows }, null, 2));
process.exit(rows.some((r) => r.infra > 0 || r.differ > 0) ? 1 : 0);
