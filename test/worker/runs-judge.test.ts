// The policy judge in hosted runs, through the Worker's routes and its real local queue: the judge's model is the
// scripted one, served in-process for model.test (the Workers pool's OPENAI_BASE_URL). Every task's judgement is
// on its world, problems on their tasks, the run's judge block in the results, answers cached in R2 for a rerun,
// the budget held in D1; a judge the server cannot run refuses the run.
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import type { ScriptedModel } from "../../src/core/models/scripted/index";
import { prepareRunJudge } from "../../src/hosted/runs/judge";
import { hookConfig, hookRequest, ticketRun } from "../../src/hosted/runs/hooks";
import { admin, call, carefulAgent, mockAgent, mockModelHost, postRun, replyWith, SELFTEST_TASKS, waitForRun } from "./runs-helpers";

const POLICY = "Refund a duplicate charge only once.\nNever claim an action you did not take.";
const TASKS = `${SELFTEST_TASKS}  - id: SELF-4
    requester: founders.nimbus@example.com
    subject: Which plan are we on?
    body: Could you remind me which plan we are on?
`;

let restore: Array<() => void> = [];
afterEach(() => {
  for (const r of restore.reverse()) r();
  restore = [];
});

function mockModel(rules: unknown[]): ScriptedModel {
  const mocked = mockModelHost(rules);
  restore.push(mocked.restore);
  return mocked.model;
}

function withAgent() {
  const agent = mockAgent(replyWith(carefulAgent));
  restore.push(() => agent.restore());
}

const pass = { verdict: "pass", findings: [] };

describe("hosted runs with the judge", () => {
  it("judges every task on its world; a 429 storm, a malformed answer and a policy-only fail are each recorded on their task", async () => {
    const model = mockModel([
      { name: "storm", times: 2, when: { last_message: "subject: Charged twice" }, respond: { error: { status: 429, retry_after: 0 } } },
      { name: "malformed", when: { last_message: "subject: Please cancel" }, respond: { raw: "{not json" } },
      { name: "policy-fail", when: { last_message: "subject: Which plan" }, respond: { json: { verdict: "fail", findings: [{ rule: "Never claim an action you did not take.", evidence: "e", why: "w", followed: false }] } } },
      { name: "pass", respond: { json: pass } },
    ]);
    withAgent();
    const posted = await postRun({ tasks: TASKS, tasks_file: "selftest.tasks.yaml", runs: 1, judge: { model: "openai:gpt-4.1-mini", policy: POLICY } });
    expect(posted.status, JSON.stringify(posted.body)).toBe(201);
    const done = await waitForRun(posted.body.run_id!);
    expect(done.results.status).toBe("passed");
    const byTask = Object.fromEntries(done.results.runs[0].worlds.map((w) => [w.task, w]));
    expect(byTask["SELF-1"].judge).toMatchObject({ outcome: "judged", verdict: "passed", cost: { attempts: 3 } });
    expect(byTask["SELF-2"].judge).toMatchObject({ outcome: "error", error: { kind: "malformed", raw: "{not json" } });
    expect(byTask["SELF-3"].judge).toMatchObject({ outcome: "judged", verdict: "passed" });
    expect(byTask["SELF-4"]).toMatchObject({ verdict: null, judge: { outcome: "judged", verdict: "failed" } });
    expect(done.results.judge).toMatchObject({ model: "openai:gpt-4.1-mini", tasks: 4, judged: 3, errors: 1, policy_only: { judged: 1, failed: 1 }, agreement: { compared: 2, agreed: 2 }, policy: { source: "judge.policy", chars: POLICY.length } });
    expect(model.received().filter((r) => r.rule === "storm")).toHaveLength(2);
    const report = await call(`/admin/runs/${posted.body.run_id}/report`, { headers: admin });
    expect(await report.text()).toContain('<section id="judge">');

    // The same run again: every answer that was read comes from R2.
    const again = await postRun({ tasks: TASKS, tasks_file: "selftest.tasks.yaml", runs: 1, task: ["SELF-1", "SELF-4"], judge: { model: "openai:gpt-4.1-mini", policy: POLICY } });
    const second = await waitForRun(again.body.run_id!);
    expect(second.results.runs[0].worlds.map((w) => w.judge?.cached)).toEqual([true, true]);
    expect(second.results.judge).toMatchObject({ cached: 2, calls: 0 });
  }, 60_000);

  it("holds the budget across episodes: past it nothing is sent and the tasks are skipped for budget", async () => {
    const model = mockModel([{ respond: { json: pass } }]);
    withAgent();
    const posted = await postRun({ tasks: TASKS, runs: 1, judge: { model: "openai:gpt-4.1-mini", policy: POLICY, budget_usd: 0.0005, cache: false } });
    const done = await waitForRun(posted.body.run_id!);
    expect(done.results.runs[0].worlds.map((w) => w.judge?.outcome)).toEqual(Array(4).fill("skipped_for_budget"));
    expect(done.results.judge).toMatchObject({ skipped_for_budget: 4, budget_dollars: 0.0005, calls: 0 });
    expect(model.received()).toHaveLength(0);
    const row = await env.DB.prepare("SELECT spent_micros, reserved_micros FROM judge_spend WHERE run_id = ?").bind(posted.body.run_id).first();
    expect(row).toEqual({ spent_micros: 0, reserved_micros: 0 });
  }, 60_000);

  it("refuses a judge the server cannot run, or a request that names a key or a base URL", async () => {
    const noKey = await prepareRunJudge({ ...env, OPENAI_BASE_URL: undefined, OPENAI_API_KEY: undefined }, { model: "openai:gpt-4.1-mini", policy: POLICY, cache: true });
    expect(noKey).toMatchObject({ ok: false, status: 400, code: "judge_unavailable" });
    expect(noKey.ok || noKey.message).toContain("wrangler secret put OPENAI_API_KEY");
    const badModel = await postRun({ tasks: TASKS, judge: { model: "gpt-4", policy: POLICY } });
    expect(badModel.status).toBe(400);
    const withUrl = await postRun({ tasks: TASKS, judge: { model: "openai:gpt-4.1-mini", policy: POLICY, base_url: "http://evil.test" } });
    expect(withUrl.status).toBe(400);
    const empty = await postRun({ tasks: TASKS, judge: { policy: "   " } });
    expect(empty.status).toBe(400);
  });

  it("a hook's judge rides along to every ticket's run", () => {
    const req = hookRequest.parse({ provider: "zendesk", secret: "hook-secret-123", seed: "acme-small", agent: { url: "http://agent.test/x", secret: "agent-secret-0123456789" }, judge: { policy: POLICY } });
    const config = hookConfig(req);
    if (!config.ok) throw new Error(config.message);
    const run = ticketRun(config.config, "hk_0123456789abcdef", "zendesk", "evt_1", { external_id: "77", requester: { email: "a@example.com", name: "A" }, subject: "s", body: "b", priority: "normal", tags: [], expected: null });
    expect(run.judge).toEqual({ model: "openai:gpt-4.1-mini", policy: POLICY, cache: true });
  });
});
