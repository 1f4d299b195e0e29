// Hosted-run throughput: N episodes (default 1,000: 10 tasks x 100 runs on acme-small) through the local queue
// against a stub HTTP agent that answers at once, and the same N episodes driven by `worlds passk` with a process
// agent that makes the same HTTP call, on the same server in the same run. Prints episodes/s and the ratio.
// Usage: node bench/hosted-queue.mjs [--episodes N] [--concurrency C]   (after `npm run build`)
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { startServer, fmt } from "./lib/server.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const arg = (name, dflt) => (process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : dflt);
const episodes = arg("--episodes", 1000);
const concurrency = arg("--concurrency", 10);
const TASKS = 10;
const runs = Math.max(1, Math.round(episodes / TASKS));

const dir = mkdtempSync(join(tmpdir(), "worlds-bench-hosted-"));
const tasksFile = join(dir, "tasks.yaml");
const requesters = ["billing.northwind@example.com", "studio.lumen@example.com", "founders.nimbus@example.com", "billing.iris@example.com", "bursar.juniper@example.com"];
writeFileSync(
  tasksFile,
  ["version: 1", "seed: acme-small", "mode: isolated", "tasks:"]
    .concat(Array.from({ length: TASKS }, (_, i) => [`  - id: B-${i + 1}`, `    requester: ${requesters[i % requesters.length]}`, `    subject: Question ${i + 1}`, `    body: Just checking in about our account.`, `    expected: none`]).flat())
    .join("\n") + "\n",
);

// The stub agent: answers every request at once (no signature check: it only measures the harness).
let calls = 0;
const agent = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    calls++;
    res.writeHead(200, { "content-type": "application/json" }).end('{"reply":"Thanks, nothing to change."}');
  });
});
await new Promise((r) => agent.listen(0, "127.0.0.1", r));
const agentUrl = `http://127.0.0.1:${agent.address().port}/`;

// The process agent for the CLI: the same HTTP call to the same stub, then the reply on stdout.
const client = join(dir, "http-agent.mjs");
writeFileSync(client, `const r = await fetch(${JSON.stringify(agentUrl)}, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ task: JSON.parse(process.env.WORLDS_TASK_JSON) }) });\nconsole.log((await r.json()).reply);\n`);

const server = await startServer();
const headers = { authorization: `Bearer ${server.token}`, "content-type": "application/json" };
try {
  const { readFileSync } = await import("node:fs");
  // Hosted: POST the run, poll until done.
  const t0 = performance.now();
  const posted = await (await fetch(`${server.url}/admin/runs`, { method: "POST", headers, body: JSON.stringify({ tasks: readFileSync(tasksFile, "utf8"), runs, concurrency, agent: { url: agentUrl, secret: "bench-secret-0123456789" } }) })).json();
  if (!posted.run_id) throw new Error(`run not created: ${JSON.stringify(posted)}`);
  let view;
  for (;;) {
    view = await (await fetch(`${server.url}/admin/runs/${posted.run_id}`, { headers })).json();
    if (view.status === "done" || view.status === "failed") break;
    await new Promise((r) => setTimeout(r, 250));
  }
  const hostedS = (performance.now() - t0) / 1000;
  if (view.status !== "done" || view.progress.done !== posted.episodes) throw new Error(`hosted run ended ${view.status}: ${JSON.stringify(view.progress)} ${view.error ?? ""}`);
  const hostedCalls = calls;

  // CLI: the same tasks and runs, same concurrency, against the same server.
  const t1 = performance.now();
  const cli = await new Promise((resolve) => {
    const child = spawn(process.execPath, [join(root, "bin", "worlds.mjs"), "passk", "--url", server.url, "--token", server.token, "--tasks", tasksFile, "--runs", String(runs), "--concurrency", String(concurrency), "--json", "--", process.execPath, client], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.resume();
    child.on("close", (code) => resolve({ code, out }));
  });
  const cliS = (performance.now() - t1) / 1000;
  const cliEpisodes = JSON.parse(cli.out).runs.reduce((n, r) => n + r.worlds.length, 0);

  const hostedRate = posted.episodes / hostedS;
  const cliRate = cliEpisodes / cliS;
  console.log(`hosted runs through the local queue, ${posted.episodes} episodes (${TASKS} tasks x ${runs} runs, acme-small), concurrency ${concurrency}, stub HTTP agent`);
  console.log(`  hosted (queue consumer calls the agent)   ${fmt(hostedS)} s   ${fmt(hostedRate)} episodes/s   agent calls ${hostedCalls}`);
  console.log(`  CLI passk (process agent calls the agent) ${fmt(cliS)} s   ${fmt(cliRate)} episodes/s   episodes ${cliEpisodes}, exit ${cli.code}`);
  console.log(`  ratio hosted/CLI throughput: ${fmt(hostedRate / cliRate, 2)}x`);
} finally {
  await server.stop();
  agent.close();
}
