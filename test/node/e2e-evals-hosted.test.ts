// A hosted evals run end to end: POST /admin/runs with the benchmark's replay tasks as text to the real local
// server, whose queue runs every trial against a real signed HTTP agent on 127.0.0.1 (the literal agent's plans),
// with the person and the rubric judge on the scripted model through the server's own environment. The end-state
// task passes and the rubric task is criteria_unmet, in schema-valid results, with no world left open.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { literalEvalsAgent } from "../fixtures/evals/literal-hosted";
import { ROOT } from "./helpers/cli";
import { startScriptedLocal } from "./helpers/scripted-local";
import { startSignedAgent, type SignedAgent } from "./helpers/signed-agent";
import { assertValidResults } from "./helpers/validate-results";

const SECRET = "e2e-evals-agent-secret-0123";
const BENCH = JSON.parse(readFileSync(join(ROOT, "examples", "evals", "benchmark.json"), "utf8")) as { tasks: unknown[] };
const REPLAY = JSON.stringify({ ...BENCH, tasks: BENCH.tasks.slice(0, 2) }, null, 2);

let local: Awaited<ReturnType<typeof startScriptedLocal>>;
let agent: SignedAgent;
const admin = () => ({ authorization: `Bearer ${local.server.token}`, "content-type": "application/json" });

async function post(url: string, key: string, body: unknown): Promise<unknown> {
  const res = await fetch(url, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

beforeAll(async () => {
  local = await startScriptedLocal("test/fixtures/person/episode.script.yaml");
  agent = await startSignedAgent(SECRET, (body) => literalEvalsAgent(body, post));
}, 120_000);

afterAll(async () => {
  await agent?.close();
  await local?.stop();
});

interface View {
  status: string;
  progress: { total: number; done: number; infra_errors: number; passed: number; graded: number };
  results: { status: string; tasks: { file: string }; runs: Array<{ worlds: Array<{ task: string; verdict: string | null }> }>; crash_test: { worst_task: { replay: string } | null } } | null;
}

describe("POST /admin/runs with evals on the local server", () => {
  it("runs each task twice against the signed agent: end_state passes, the rubric task is criteria_unmet", async () => {
    const res = await fetch(`${local.server.url}/admin/runs`, {
      method: "POST",
      headers: admin(),
      body: JSON.stringify({ evals: { file: REPLAY, file_name: "benchmark.json", person: "openai:person-model", judge: "openai:judge-model" }, agent: { url: `${agent.url}/episode`, secret: SECRET }, runs: 2 }),
    });
    const posted = (await res.json()) as { run_id: string; episodes: number };
    expect(res.status, JSON.stringify(posted)).toBe(201);
    expect(posted.episodes).toBe(4);
    let view: View;
    for (;;) {
      view = (await (await fetch(`${local.server.url}/admin/runs/${posted.run_id}`, { headers: admin() })).json()) as View;
      if (view.status === "done" || view.status === "failed") break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(view.status).toBe("done");
    expect(view.progress).toMatchObject({ total: 4, done: 4, infra_errors: 0, passed: 2, graded: 4 });
    const results = view.results!;
    assertValidResults(results);
    expect(results.tasks.file).toBe("benchmark.json");
    for (const run of results.runs) expect(Object.fromEntries(run.worlds.map((w) => [w.task, w.verdict]))).toEqual({ "duplicate-charge-refund": "criteria_unmet", "cancel-at-period-end": "passed" });
    expect(results.crash_test.worst_task?.replay).toMatch(/^worlds evals run benchmark\.json --url http:\/\/127\.0\.0\.1:\d+ --agent-url http:\/\/127\.0\.0\.1:\d+\/episode --task duplicate-charge-refund --runs 1$/);
    expect(agent.calls).toHaveLength(4);
    expect(agent.calls.every((b) => b.kind === "evals" && b.world.person_url === `${local.server.url}/person/v1`)).toBe(true);
    // Every trial's world is gone once the run is done.
    for (const call of agent.calls) expect((await fetch(`${local.server.url}/admin/worlds/${call.world.id}`, { headers: admin() })).status).toBe(404);
  }, 600_000);
});
