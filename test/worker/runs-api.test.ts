// Hosted runs through the Worker's own routes and its real local queue: a run posted with a tasks file is
// fanned out, each episode's agent is called over (mocked) HTTP with a signed request, graded, and the run
// finishes once with the results contract.
import { env, exports } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { admin, call, carefulAgent, json, mockAgent, postRun, replyWith, SELFTEST_TASKS, twinOf, waitForRun } from "./runs-helpers";

let agent: ReturnType<typeof mockAgent> | null = null;
afterEach(() => agent?.restore());

describe("POST /admin/runs", () => {
  it("runs every task k times against the agent and finishes with the CLI's result contract", async () => {
    agent = mockAgent(replyWith(carefulAgent));
    const posted = await postRun({ tasks: SELFTEST_TASKS, tasks_file: "selftest.tasks.yaml", runs: 2 });
    expect(posted.status).toBe(201);
    const runId = posted.body.run_id!;
    const done = await waitForRun(runId);
    expect(done.status).toBe("done");
    expect(done.progress).toMatchObject({ total: 6, done: 6, infra_errors: 0, passed: 6, graded: 6 });
    expect(done.exit_code).toBe(0);
    expect(done.results.status).toBe("passed");
    expect(done.results.crash_test.flawless_runs).toBe(2);
    expect(done.results.runs.flatMap((r) => r.worlds.map((w) => w.verdict))).toEqual(Array(6).fill("passed"));
    expect(agent.calls).toHaveLength(6);
    expect(agent.calls[0]).toMatchObject({ mode: "isolated", world: { stripe_api_base: "http://twin.test", zendesk_url: "http://twin.test", mcp_url: "http://twin.test/mcp", tools_url: "http://twin.test/tools/v1" } });
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM episodes WHERE run_id = ? AND status = 'done'").bind(runId).first<{ n: number }>();
    expect(rows?.n).toBe(6);
    // Every world was removed; every trace is under the run.
    const live = await env.DB.prepare("SELECT count(*) AS n FROM worlds WHERE run_id = ? AND deleted_at IS NULL").bind(runId).first<{ n: number }>();
    expect(live?.n).toBe(0);
    const trace = await call(`/admin/runs/${runId}/episodes/1/trace`, { headers: admin });
    expect(trace.status).toBe(200);
    expect(new TextDecoder().decode(await trace.arrayBuffer()).split("\n").filter(Boolean).length).toBeGreaterThan(1);
    const report = await call(`/admin/runs/${runId}/report`, { headers: admin });
    expect(report.headers.get("content-type")).toContain("text/html");
    expect(await report.text()).toContain("<svg");
    const results = await call(`/admin/runs/${runId}/results`, { headers: admin });
    expect(await json(results)).toEqual(done.results);
  });

  it("records what a failing agent did: a missed refund is policy_failed with the replay line for --agent-url", async () => {
    // Looks the customer up (so the twin sees traffic) and does nothing else.
    agent = mockAgent(replyWith(async (b) => (await twinOf(b.world).get(`/v1/customers?email=${encodeURIComponent(b.kind === "account" ? b.task!.requester.email : "")}`), "Thanks, a colleague will look at this.")));
    const posted = await postRun({ tasks: SELFTEST_TASKS, tasks_file: "selftest.tasks.yaml", runs: 1, task: ["SELF-1"] });
    const done = await waitForRun(posted.body.run_id!);
    expect(done.results.status).toBe("policy_failed");
    expect(done.exit_code).toBe(1);
    expect(done.results.runs[0].worlds).toHaveLength(1);
    expect(done.results.runs[0].worlds[0]).toMatchObject({ task: "SELF-1", verdict: "missed", passed: false });
    expect(done.results.crash_test.worst_task?.replay).toBe(
      `worlds passk --tasks selftest.tasks.yaml --url http://twin.test --agent-url http://agent.test/episode --task SELF-1 --runs 1`,
    );
    // What the agent did, in the results: its one lookup, which changed nothing; and the line that reruns the run.
    expect(done.results.runs[0].worlds[0].trace?.steps.map((s) => [s.surface, s.method, s.target, s.args, s.status, s.changes])).toEqual([["billing", "GET", "/v1/customers", "email=billing.northwind@example.com", 200, []]]);
    expect(done.results.rerun).toEqual({ kind: "account", command: "worlds passk --tasks selftest.tasks.yaml --url http://twin.test --agent-url http://agent.test/episode --runs 1" });
  });

  it("refuses a tasks file with problems, naming file, line and task, and starts nothing", async () => {
    const bad = SELFTEST_TASKS.replace("expected: none", "expected: refund everything");
    const posted = await postRun({ tasks: bad, tasks_file: "bad.yaml" });
    expect(posted.status).toBe(400);
    expect(posted.body.error?.code).toBe("invalid_tasks");
    expect(posted.body.error?.message).toMatch(/^bad\.yaml has 1 problem: bad\.yaml:\d+:\d+: task SELF-3/);
    const unknown = await postRun({ tasks: SELFTEST_TASKS.replace("seed: acme-small", "seed: nowhere") });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error?.code).toBe("seed_not_found");
    const noSecret = await call("/admin/runs", { method: "POST", headers: admin, body: JSON.stringify({ tasks: SELFTEST_TASKS, agent: { url: "http://agent.test/", secret: "short" } }) });
    expect(noSecret.status).toBe(400);
    expect(JSON.stringify(await json(noSecret))).toContain("agent.secret");
    const before = (await json<{ data: unknown[] }>(await call("/admin/runs?limit=100", { headers: admin }))).data.length;
    const noScenario = await postRun({ tasks: SELFTEST_TASKS, scenario: "no-such-scenario" });
    expect(noScenario.status).toBe(400);
    expect(noScenario.body.error?.code).toBe("scenario_not_found");
    expect((await json<{ data: unknown[] }>(await call("/admin/runs?limit=100", { headers: admin }))).data).toHaveLength(before);
  });

  it("runs shift mode as one episode per repetition, the agent working the desk", async () => {
    agent = mockAgent(
      replyWith(async (b) => {
        const desk = (method: string, path: string, body?: unknown) =>
          exports.default.fetch(new Request(new URL(path, b.world.zendesk_url), { method, headers: { authorization: `Bearer ${b.world.key}`, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) })).then((r) => r.json() as Promise<{ tickets: Array<{ id: number }> }>);
        await twinOf(b.world).get("/v1/customers?limit=1");
        const { tickets } = await desk("GET", "/api/v2/tickets.json");
        for (const t of tickets) await desk("PUT", `/api/v2/tickets/${t.id}.json`, { ticket: { comment: { body: "Thanks, a colleague will follow up.", public: true }, status: "pending" } });
        return `worked ${tickets.length} tickets`;
      }),
    );
    const posted = await postRun({ tasks: SELFTEST_TASKS, runs: 2, mode: "shift" });
    const done = await waitForRun(posted.body.run_id!);
    expect(agent.calls.map((c) => [c.mode, c.task])).toEqual([["shift", null], ["shift", null]]);
    expect(done.progress.total).toBe(2);
    expect(done.results.mode).toBe("shift");
    expect(done.results.runs.map((r) => r.worlds.map((w) => w.task))).toEqual([["SELF-1", "SELF-2", "SELF-3"], ["SELF-1", "SELF-2", "SELF-3"]]);
    expect(new Set(done.results.runs[0].worlds.map((w) => w.world)).size).toBe(1);
    expect(done.results.runs[0].worlds[0].reply?.excerpt).toBe("Thanks, a colleague will follow up.");
    const episodes = await json<{ data: Array<{ n: number; tasks: string[] }> }>(await call(`/admin/runs/${done.id}/episodes`, { headers: admin }));
    expect(episodes.data.map((e) => [e.n, e.tasks])).toEqual([[1, ["SELF-1", "SELF-2", "SELF-3"]], [2, ["SELF-1", "SELF-2", "SELF-3"]]]);
  });

  it("lists runs newest first, filtered by status, a page at a time", async () => {
    agent = mockAgent(replyWith(carefulAgent));
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const posted = await postRun({ tasks: SELFTEST_TASKS, runs: 1, task: ["SELF-3"] });
      ids.push(posted.body.run_id!);
      await waitForRun(posted.body.run_id!);
    }
    const first = await json<{ data: Array<{ id: string; status: string }>; next_cursor: string | null }>(await call("/admin/runs?status=done&limit=2", { headers: admin }));
    expect(first.data.every((r) => r.status === "done")).toBe(true);
    const all = [...first.data];
    let cursor = first.next_cursor;
    while (cursor) {
      const page = await json<{ data: Array<{ id: string; status: string }>; next_cursor: string | null }>(await call(`/admin/runs?status=done&limit=2&cursor=${encodeURIComponent(cursor)}`, { headers: admin }));
      all.push(...page.data);
      cursor = page.next_cursor;
    }
    const order = all.map((r) => r.id).filter((id) => ids.includes(id));
    expect(order).toEqual([...ids].reverse());
    expect(new Set(all.map((r) => r.id)).size).toBe(all.length);
    expect((await json<{ data: unknown[] }>(await call("/admin/runs?status=running", { headers: admin }))).data).toEqual([]);
    expect((await call("/admin/runs?status=nope", { headers: admin })).status).toBe(400);
    expect((await call("/admin/runs/run_AAAAAAAAAAAAAAAA", { headers: admin })).status).toBe(404);
  });

  it("needs the server token", async () => {
    expect((await call("/admin/runs", { method: "POST", body: "{}" })).status).toBe(401);
    expect((await call("/admin/runs")).status).toBe(401);
  });
});
