// The policy judge's overhead per task: `worlds passk` on 30 keyed tasks, with and without `--judge`, against one
// `worlds serve` and the scripted model (`worlds model serve`) on loopback, as a user would run them. Rounds
// alternate the baseline and each judged variant, so every ratio is against a baseline measured in the same run:
//   - judge, instant model: what worlds' own judging costs (prompt, request, validation, results), no cache;
//   - judge, cached: the same judgements again, answered from .worlds/cache;
//   - judge, 300 ms model: a model that takes time, to show the judging overlaps with the next episodes.
// Usage: node bench/judge-overhead.mjs [--rounds N] [--concurrency N]
import { mkdtempSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { fmt, startScriptedModel, startServer } from "./lib/server.mjs";
import { timed } from "./lib/run.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const arg = (name) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const rounds = Number(arg("--rounds")) || 3;
const concurrency = Number(arg("--concurrency")) || availableParallelism();
const TASKS = 30;

const dir = mkdtempSync(join(tmpdir(), "worlds-judge-bench-"));
const EMAILS = ["billing.northwind@example.com", "hello.bluebird@example.com", "finance.cobalt@example.com", "accounts.delta@example.com", "studio.ember@example.com", "ap.fjord@example.com", "office.garnet@example.com", "billing.iris@example.com", "bursar.juniper@example.com", "accounts.kestrel@example.com", "studio.lumen@example.com", "ops.mosaic@example.com", "founders.nimbus@example.com"];
const lines = ["version: 1", "seed: acme-small", "policy: policy.md", "mode: isolated", "invariants:", "  - deleted.customers==0", "tasks:"];
for (let i = 0; i < TASKS; i++) lines.push(`  - id: B-${i + 1}`, `    requester: ${EMAILS[i % EMAILS.length]}`, `    subject: Question ${i + 1}`, `    body: When is my next invoice? No changes please.`, `    expected: none`);
// The agent looks the customer up (one billing request, so the run is conclusive) and answers without changing anything.
const agentFile = join(dir, "agent.mjs");
writeFileSync(
  agentFile,
  [
    "const t = JSON.parse(process.env.WORLDS_TASK_JSON);",
    "const r = await fetch(process.env.STRIPE_API_BASE + '/v1/customers?email=' + encodeURIComponent(t.requester.email), { headers: { authorization: 'Bearer ' + process.env.STRIPE_API_KEY } });",
    "await r.text();",
    "process.stdout.write('Thanks for writing in. Nothing on your account was changed.');",
  ].join("\n"),
);
const AGENT = [process.execPath, agentFile];
const tasksFile = join(dir, "tasks.yaml");
writeFileSync(tasksFile, lines.join("\n") + "\n");
writeFileSync(join(dir, "policy.md"), "Answer questions without changing anything on the account.\nNever claim an action you did not take.\n");
const script = join(dir, "judge.script.yaml");
const answer = "{ verdict: pass, findings: [{ rule: 'Answer questions without changing anything on the account.', evidence: 'no changes', why: 'Nothing was changed.', followed: true }] }";
writeFileSync(script, ["version: 1", "rules:", "  - when: { model: gpt-4.1-nano }", "    latency_ms: 300", `    respond: { json: ${answer} }`, "  - respond:", `      json: ${answer}`, ""].join("\n"));

const run = (args, env = {}, cwd = root) => timed(process.execPath, [join(root, "bin", "worlds.mjs"), ...args], { cwd, env });

const server = await startServer();
const model = await startScriptedModel(script);
const env = { WORLDS_URL: server.url, WORLDS_TOKEN: server.token, OPENAI_BASE_URL: model.url, OPENAI_API_KEY: "" };
const cacheDir = mkdtempSync(join(tmpdir(), "worlds-judge-cache-"));
async function passk(extra, cwd = root) {
  const r = await run(["passk", "--tasks", tasksFile, "--runs", "1", "--concurrency", String(concurrency), "--json", ...extra, "--", ...AGENT], env, cwd);
  const doc = JSON.parse(r.out);
  const judged = doc.judge ? doc.judge.judged : 0;
  if (doc.status !== "passed" || (extra.includes("--judge") && judged !== TASKS)) throw new Error(`passk ${extra.join(" ")}: ${doc.status}, judged ${judged}\n${r.err}`);
  return { ms: r.ms, cached: doc.judge?.cached ?? 0, judgeMs: doc.judge?.duration_ms?.mean ?? 0 };
}

const VARIANTS = [
  { name: "judge, instant model (no cache)", flags: ["--judge", "openai:gpt-4.1-mini", "--no-cache"] },
  { name: "judge, cached answers", flags: ["--judge", "openai:gpt-4.1-mini"], cwd: cacheDir },
  { name: "judge, 300 ms model (no cache)", flags: ["--judge", "openai:gpt-4.1-nano", "--no-cache"] },
];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
try {
  await passk([]); // warm the server
  await passk(VARIANTS[1].flags, cacheDir); // fills the cache the cached variant reads
  // Each judged run is paired with the baseline run just before it: the pair's ratio is what one round says.
  const pairs = VARIANTS.map(() => []);
  for (let r = 0; r < rounds; r++) {
    for (const [i, v] of VARIANTS.entries()) {
      const b = await passk([]);
      const j = await passk(v.flags, v.cwd);
      pairs[i].push({ b, j });
    }
  }
  const all = pairs.flat().map((p) => p.b.ms);
  console.log(`judge overhead: ${TASKS} tasks x 1 run, concurrency ${concurrency}, ${rounds} rounds; each judged run against the baseline run just before it (median of the pairs, [range])`);
  console.log(`  baseline, no judge: ${fmt(median(all))} ms wall [${fmt(Math.min(...all))}-${fmt(Math.max(...all))}], ${fmt(median(all) / TASKS)} ms a task`);
  for (const [i, v] of VARIANTS.entries()) {
    const ratios = pairs[i].map((p) => p.j.ms / p.b.ms);
    const perTask = pairs[i].map((p) => (p.j.ms - p.b.ms) / TASKS);
    const share = pairs[i].map((p) => (p.j.ms - p.b.ms) / p.j.ms);
    const judgeMs = pairs[i].map((p) => p.j.judgeMs);
    console.log(
      `  ${v.name.padEnd(32)} wall ${fmt(median(ratios), 2)}x [${fmt(Math.min(...ratios), 2)}-${fmt(Math.max(...ratios), 2)}] · ${fmt(median(perTask))} ms a task [${fmt(Math.min(...perTask))}-${fmt(Math.max(...perTask))}] · ${fmt(median(share) * 100)}% of the run · each judgement ${fmt(median(judgeMs), 0)} ms (recorded)`,
    );
  }
} finally {
  model.stop();
  await server.stop();
}
