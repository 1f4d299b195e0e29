// Episodes per second through the RL episode API (POST /admin/episodes, two tool calls, two turns with the person,
// POST /admin/episodes/:id/grade with the rubric judge), the person and the judge on the scripted model
// (`worlds model serve`), against a baseline measured in the same run on the same server: the plain episode
// skeleton every passk world goes through (create a world, two reads, end it with its diff and trace), without
// a person, a replay seed or a judge. Rounds alternate the two, each at the same concurrency, so the ratio is
// against a baseline under the same load. Prints episodes/s for each and the ratio.
// Usage: node bench/episodes.mjs [--episodes N] [--rounds N] [--concurrency N]
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { fmt, startScriptedModel, startServer } from "./lib/server.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const arg = (name) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const episodes = Number(arg("--episodes")) || 24;
const rounds = Number(arg("--rounds")) || 3;
const concurrency = Number(arg("--concurrency")) || 4;
const task = JSON.parse(readFileSync(join(root, "examples/evals/benchmark.json"), "utf8")).tasks[0];

const model = await startScriptedModel(join(root, "test/fixtures/person/episode.script.yaml"));
const server = await startServer({ OPENAI_BASE_URL: model.url, OPENAI_API_KEY: "sk-bench" });
const admin = { authorization: `Bearer ${server.token}`, "content-type": "application/json" };

async function post(url, body, headers, want) {
  const res = await fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
  const json = await res.json();
  if (res.status !== want) throw new Error(`POST ${url}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
  return json;
}

/** One RL episode, as a policy drives it: surfaces, the tools, the person until done, the grade. */
async function rlEpisode(i) {
  // Each episode its own conversation: a fresh opening, so the person's answers are not all one cached exchange.
  const ep = await post(`${server.url}/admin/episodes`, { task: { ...task, prompt: `${task.prompt} (#${i})` }, person: "openai:person-model", judge: "openai:judge-model", purpose: "eval" }, admin, 201);
  const bearer = { authorization: `Bearer ${ep.world.key}`, "content-type": "application/json" };
  await post(`${ep.world.tools_url}/call`, { name: "orders__get", arguments: { order_id: "A-1001" } }, bearer, 200);
  await post(`${ep.world.person_url}/respond`, { said: "What is the email on the account?" }, bearer, 200);
  await post(`${ep.world.tools_url}/call`, { name: "refunds__create", arguments: { charge_id: "ch_2" } }, bearer, 200);
  await post(`${ep.world.person_url}/respond`, { said: "I have refunded the duplicate charge." }, bearer, 200);
  const grade = await post(`${server.url}/admin/episodes/${ep.id}/grade`, {}, admin, 200);
  if (grade.reward !== 0.8) throw new Error(`unexpected reward ${grade.reward}: ${JSON.stringify(grade).slice(0, 300)}`);
}

/** The baseline: a plain world's create, two reads, and its end with diff and trace. */
async function plainEpisode() {
  const w = await post(`${server.url}/admin/worlds`, { seed: "acme-small" }, admin, 201);
  const bearer = { authorization: `Bearer ${w.key}` };
  for (let n = 0; n < 2; n++) {
    const res = await fetch(`${w.stripe_api_base}/v1/customers?limit=3`, { headers: bearer });
    if (res.status !== 200) throw new Error(`read: ${res.status}`);
    await res.arrayBuffer();
  }
  await post(`${server.url}/admin/worlds/${w.id}/end`, {}, admin, 200);
}

async function perSecond(fn, offset) {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < episodes) await fn(offset + next++);
  }));
  return episodes / ((performance.now() - t0) / 1000);
}

try {
  const load = loadavg()[0];
  await rlEpisode(-1);
  await plainEpisode();
  const rl = [];
  const plain = [];
  for (let r = 0; r < rounds; r++) {
    plain.push(await perSecond(plainEpisode, 0));
    rl.push(await perSecond(rlEpisode, r * episodes));
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(`episodes per second, ${episodes} per round x ${rounds} rounds at concurrency ${concurrency}, worlds serve (Miniflare); load average ${fmt(load, 1)} at the start`);
  console.log(`  plain world (create, 2 reads, end)                       ${fmt(median(plain), 2)}/s  (rounds ${plain.map((x) => fmt(x, 2)).join(", ")})  baseline`);
  console.log(`  RL episode (create, 2 tools, 2 person turns, rubric grade) ${fmt(median(rl), 2)}/s  (rounds ${rl.map((x) => fmt(x, 2)).join(", ")})  ${fmt(median(rl) / median(plain), 2)}x the baseline`);
} finally {
  await server.stop();
  model.stop();
}
