// Hosted evals runs: POST /admin/runs with a portable task file as text. The server makes each task's replay world
// with its person (played by the scripted model, served in-process for model.test), fans the trials out through
// the queue, gives the HTTP agent each task's prompt and tools, and grades each world's end with the task's own
// grader (the rubric judge, end-state checks) into the shared results contract.
import { env, exports } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import BENCHMARK from "../../examples/evals/benchmark.json?raw";
import { literalEvalsAgent } from "../fixtures/evals/literal-hosted";
import type { AgentRequestBody } from "../../src/core/pipeline/index";
import { hostedEvalsRequest } from "../../src/core/kinds/replay/task-format/hosted";
import { prepareEvalsRun } from "../../src/hosted/runs/evals/prepare";
import { admin, call, mockAgent, mockModelHost, postRun, replyWith, waitForRun } from "./runs-helpers";

/** The benchmark's two replay tasks (its third is an environment of your own, which the server refuses). */
const REPLAY = JSON.stringify({ ...JSON.parse(BENCHMARK), tasks: JSON.parse(BENCHMARK).tasks.slice(0, 2) }, null, 2);

let restore: Array<() => void> = [];
afterEach(() => {
  for (const r of restore.reverse()) r();
  restore = [];
});

const PERSON_RULES = [
  { name: "asked-email", when: { answer: "person_asked", last_message: "e-?mail" }, respond: { json: { asked: [2] } } },
  { name: "asked-nothing", when: { answer: "person_asked" }, respond: { json: { asked: [] } } },
  { name: "gives-email", when: { answer: "person_reply", last_message: "e-?mail" }, respond: { json: { reply: "It's dana@example.com.", done: false } } },
  { name: "explains", when: { answer: "person_reply" }, respond: { json: { reply: "Thank you.", done: true } } },
];
const FEE_UNEXPLAINED = {
  name: "judge",
  when: { answer: "rubric_grades" },
  respond: {
    json: {
      criteria: [
        { id: "refund-duplicate", met: true, reason: "refunds__create was called for ch_2." },
        { id: "no-february-refund", met: true, reason: "No refund of ch_3 was made or promised." },
        { id: "fee-explained", met: false, reason: "The agent never said what the February fee is." },
      ],
    },
  },
};

async function post(url: string, key: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await exports.default.fetch(new Request(url, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify(body) }));
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

const literalAgent = (body: AgentRequestBody) => literalEvalsAgent(body, post);

const evals = (extra: Record<string, unknown> = {}) => ({ evals: { file: REPLAY, file_name: "benchmark.json", judge: "openai:judge-model", person: "openai:person-model", ...extra } });

describe("POST /admin/runs with evals", () => {
  it("runs every task k times in its replay world with its person: the end-state task passes, the rubric task is criteria_unmet", async () => {
    restore.push(mockModelHost([...PERSON_RULES, FEE_UNEXPLAINED]).restore);
    const agent = mockAgent(replyWith(literalAgent));
    restore.push(() => agent.restore());
    const posted = await postRun({ ...evals(), runs: 2 });
    expect(posted.status, JSON.stringify(posted.body)).toBe(201);
    const done = await waitForRun(posted.body.run_id!);
    expect(done.status).toBe("done");
    expect(done.progress).toMatchObject({ total: 4, done: 4, infra_errors: 0, passed: 2, graded: 4 });
    expect(done.results.tasks.file).toBe("benchmark.json");
    const verdicts = done.results.runs.map((r) => Object.fromEntries(r.worlds.map((w) => [w.task, w.verdict])));
    expect(verdicts).toEqual([
      { "duplicate-charge-refund": "criteria_unmet", "cancel-at-period-end": "passed" },
      { "duplicate-charge-refund": "criteria_unmet", "cancel-at-period-end": "passed" },
    ]);
    expect(done.results.status).toBe("policy_failed");
    expect(done.results.crash_test.worst_task?.replay).toBe("worlds evals run benchmark.json --url http://twin.test --agent-url http://agent.test/episode --task duplicate-charge-refund --runs 1");
    // What the agent is sent: the task's slug, the prompt as its request, the replay world's tools, and the person.
    const first = agent.calls.find((c) => c.kind === "evals" && c.task.id === "duplicate-charge-refund") as Extract<AgentRequestBody, { kind: "evals" }>;
    expect(first.task.request).toBe(JSON.parse(BENCHMARK).tasks[0].prompt);
    expect(first.task.tools.map((t) => t.function.name)).toContain("refunds__create");
    expect(first.world.person_url).toBe("http://twin.test/person/v1");
    // The unmet criterion is the scripted judge's (its answers may come from the R2 cache, so calls are not counted).
    const rubricWorld = done.results.runs[0].worlds.find((w) => w.task === "duplicate-charge-refund");
    expect(JSON.stringify(rubricWorld)).toContain("fee-explained");
    const live = await env.DB.prepare("SELECT count(*) AS n FROM worlds WHERE run_id = ? AND deleted_at IS NULL").bind(posted.body.run_id!).first<{ n: number }>();
    expect(live?.n).toBe(0);
    const trace = await call(`/admin/runs/${posted.body.run_id}/episodes/1/trace`, { headers: admin });
    expect((await trace.text()).split("\n").filter(Boolean).map((l) => JSON.parse(l).service)).toContain("person");
  }, 90_000);

  it("a judge that cannot grade is an infrastructure error at grade, never the agent's failing", async () => {
    restore.push(mockModelHost([...PERSON_RULES, { name: "broken-judge", when: { answer: "rubric_grades" }, respond: { raw: "{not json" } }]).restore);
    const agent = mockAgent(replyWith(literalAgent));
    restore.push(() => agent.restore());
    const done = await waitForRun((await postRun({ ...evals({ judge: "openai:broken-judge" }), runs: 1, task: ["duplicate-charge-refund"] })).body.run_id!, 90_000);
    expect(done.progress).toMatchObject({ total: 1, infra_errors: 1, graded: 0 });
    expect(done.results.status).toBe("inconclusive");
    const row = await env.DB.prepare("SELECT error FROM episodes WHERE run_id = ?").bind(done.id).first<{ error: string }>();
    expect(JSON.parse(row!.error)).toMatchObject({ stage: "grade" });
    expect(JSON.parse(row!.error).message).toMatch(/the judge could not grade/);
    expect(done.results.runs[0].worlds[0].verdict).toBe("infra_error");
  }, 90_000);

  it("an agent that fails its trial scores 0 with the error, and the judge is not asked", async () => {
    const host = mockModelHost([...PERSON_RULES, FEE_UNEXPLAINED]);
    restore.push(host.restore);
    const agent = mockAgent(async () => new Response('{"error":"the agent crashed: KeyError order_id"}', { status: 422, headers: { "content-type": "application/json" } }));
    restore.push(() => agent.restore());
    const done = await waitForRun((await postRun({ ...evals({ judge: "openai:fresh-judge" }), runs: 1, task: ["duplicate-charge-refund"] })).body.run_id!, 90_000);
    expect(done.progress).toMatchObject({ total: 1, infra_errors: 0, passed: 0, graded: 1 });
    const w = done.results.runs[0].worlds[0];
    expect(w.verdict).toBe("criteria_unmet");
    expect(w.evidence.notes).toContain('not graded: the agent failed (HTTP 422: {"error":"the agent crashed: KeyError order_id"})');
    expect(w.evidence.notes).toContain("reward 0 by rubric");
    expect(host.model.received().filter((r) => r.rule === "judge")).toEqual([]);
  }, 90_000);

  it("refuses what it cannot run, naming the field, and the file, line and task", async () => {
    const own = await postRun(evals({ file: BENCHMARK }));
    expect(own.status).toBe(400);
    expect(own.body.error?.code).toBe("unsupported_environment");
    expect(own.body.error?.message).toMatch(/^evals\.file \(benchmark\.json:\d+\): task game-boots: environment kind 'game-workspace'/);
    const bad = await postRun(evals({ file: REPLAY.replace('"prompt": "Please cancel', '"promptt": "Please cancel') }));
    expect(bad.body.error?.code).toBe("invalid_task_file");
    expect(bad.body.error?.message).toMatch(/benchmark\.json:\d+:\d+: task cancel-at-period-end/);
    const ownGrader = JSON.parse(REPLAY);
    ownGrader.tasks[1].grader = { kind: "my-check", threshold: 1 };
    const grader = await postRun(evals({ file: JSON.stringify(ownGrader, null, 2) }));
    expect(grader.body.error?.code).toBe("unsupported_grader");
    expect(grader.body.error?.message).toMatch(/^evals\.file \(benchmark\.json:\d+\): task cancel-at-period-end: grader kind 'my-check' is your own code/);
    // A task whose replay world could not be stored (its recorded results are over what a world keeps) is
    // refused as the reader refuses it everywhere, with the task and the recording named, never fanned out into
    // worlds that all fail to start.
    const huge = JSON.parse(REPLAY);
    huge.tasks[1].environment.observations[0].result = { note: "x".repeat(2_600_000) };
    const tooLarge = await postRun(evals({ file: JSON.stringify(huge, null, 2) }));
    expect(tooLarge.status).toBe(400);
    expect(tooLarge.body.error?.code).toBe("invalid_task_file");
    expect(tooLarge.body.error?.message).toMatch(/benchmark\.json:\d+:\d+: task cancel-at-period-end: environment\.observations\[0\]\.result: .* at most 2000000 \(record fewer or shorter observations\); this recording alone is \d+ bytes/);
    const scenario = await postRun({ ...evals(), scenario: "busy-desk" });
    expect(JSON.stringify(scenario.body.error?.issues)).toContain("scenarios shape");
    const unknown = await postRun({ ...evals(), task: ["nope"] });
    expect(unknown.body.error).toMatchObject({ code: "unknown_task" });
    expect(unknown.body.error?.message).toContain("(its tasks: duplicate-charge-refund, cancel-at-period-end)");
    const model = await postRun(evals({ judge: "gpt-4" }));
    expect(JSON.stringify(model.body.error?.issues)).toContain("provider:model");
    const both = await postRun({ ...evals(), tasks: "version: 1" });
    expect(JSON.stringify(both.body.error?.issues)).toContain("exactly one");
    const shift = await postRun({ ...evals(), mode: "shift" });
    expect(JSON.stringify(shift.body.error?.issues)).toContain("an evals run is isolated");
    const policy = await postRun({ ...evals(), judge: { model: "openai:gpt-4o-mini", policy: "Be kind." } });
    expect(JSON.stringify(policy.body.error?.issues)).toContain("evals.judge");
    // A server without a key or base URL for the judge's (or the person's) provider refuses before anything is stored.
    const keyless = { ...env, OPENAI_BASE_URL: undefined, OPENAI_API_KEY: undefined };
    const noJudge = await prepareEvalsRun(keyless, hostedEvalsRequest.parse(evals().evals), []);
    expect(noJudge.ok || noJudge).toMatchObject({ code: "judge_unavailable", message: expect.stringContaining("evals.judge: ") });
    const noPerson = await prepareEvalsRun(keyless, hostedEvalsRequest.parse(evals().evals), ["cancel-at-period-end"]);
    expect(noPerson.ok || noPerson).toMatchObject({ code: "person_unavailable", message: expect.stringContaining("wrangler secret put OPENAI_API_KEY") });
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM runs WHERE tasks_file = 'benchmark.json' AND status = 'running'").first<{ n: number }>();
    expect(rows?.n).toBe(0);
  });
});
