// POST /admin/runs/import: a run the CLI drove is registered once (by the id the CLI minted) and read back
// through the same runs API as hosted runs.
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import type { EpisodeView, RunSummary, RunView } from "../../src/core/pipeline/index";
import type { Results } from "../../src/core/results/index";
import { rubricKey } from "../../src/hosted/runs/keys";
import { admin, call, carefulAgent, json, mockAgent, postRun, replyWith, SELFTEST_TASKS, waitForRun } from "./runs-helpers";

let agent: ReturnType<typeof mockAgent> | null = null;
afterEach(() => agent?.restore());

/** A finished results document and its compiled rubric, taken from a real (hosted) run of the selftest file. */
async function finishedRun(): Promise<{ results: Results; rubric: Record<string, unknown> }> {
  agent = mockAgent(replyWith(carefulAgent));
  const posted = await postRun({ tasks: SELFTEST_TASKS, tasks_file: "selftest.tasks.yaml", runs: 1 });
  const done = await waitForRun(posted.body.run_id!);
  const stored = await env.ARTIFACTS.get(rubricKey(done.results.tasks.hashes.rubric));
  return { results: done.results, rubric: (await stored!.json()) as Record<string, unknown> };
}

function importBody(runId: string, results: Results, rubric: Record<string, unknown>) {
  const worlds = results.runs.flatMap((r) => r.worlds.map((w) => ({ run: r.index, w })));
  return {
    run_id: runId,
    runs: 1,
    rubric,
    only: [],
    concurrency: 2,
    timeout_s: 300,
    results: { ...results, agent: { command: ["node", "agent.mjs"], display: "node agent.mjs" } },
    episodes: worlds.map(({ run, w }, i) => ({
      n: i + 1,
      repetition: run,
      position: w.position,
      world: w.world,
      status: "done" as const,
      note: `${w.task} ${w.verdict ?? "policy"}`,
      passed: w.verdict === "passed" ? 1 : 0,
      graded: w.verdict === null ? 0 : 1,
      finished_at: "2026-01-02T03:04:05.000Z",
    })),
  };
}

const postImport = (body: unknown) => call("/admin/runs/import", { method: "POST", headers: admin, body: JSON.stringify(body) });

describe("POST /admin/runs/import", () => {
  it("registers a CLI run once: a second import of the same id changes nothing, and the runs API reads it back", async () => {
    const { results, rubric } = await finishedRun();
    const runId = "run_CliImport0000001";
    const body = importBody(runId, results, rubric);
    const first = await postImport(body);
    expect(first.status).toBe(201);
    expect(await json(first)).toMatchObject({ run_id: runId, created: true });
    const second = await postImport({ ...body, episodes: body.episodes.slice(0, 1) });
    expect(second.status).toBe(200);
    expect(await json(second)).toMatchObject({ run_id: runId, created: false });

    const list = await json<{ data: RunSummary[] }>(await call("/admin/runs?limit=200", { headers: admin }));
    expect(list.data.filter((r) => r.id === runId)).toHaveLength(1);
    expect(list.data.find((r) => r.id === runId)).toMatchObject({ status: "done", source: "cli", mode: "isolated", runs: 1, tasks: 3, exit_code: results.exit_code });
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM episodes WHERE run_id = ?").bind(runId).first<{ n: number }>();
    expect(rows?.n).toBe(3);

    const view = await json<RunView>(await call(`/admin/runs/${runId}`, { headers: admin }));
    expect(view).toMatchObject({ status: "done", source: "cli", agent_url: "node agent.mjs", progress: { total: 3, done: 3, finished: 3 } });
    expect(view.results?.crash_test).toEqual(results.crash_test);
    const stored = await json<Results>(await call(`/admin/runs/${runId}/results`, { headers: admin }));
    expect(stored.agent.display).toBe("node agent.mjs");
    const episodes = await json<{ data: EpisodeView[] }>(await call(`/admin/runs/${runId}/episodes`, { headers: admin }));
    expect(episodes.data.map((e) => [e.n, e.tasks, e.status])).toEqual([
      [1, ["SELF-1"], "done"],
      [2, ["SELF-2"], "done"],
      [3, ["SELF-3"], "done"],
    ]);
    expect(episodes.data[0]!.trace).toBe(`/admin/runs/${runId}/episodes/1/trace`);
  });

  it("refuses a rubric that is not the one the results were compiled to, and a malformed body, storing nothing", async () => {
    const { results, rubric } = await finishedRun();
    const runId = "run_CliImport0000002";
    const wrong = await postImport(importBody(runId, results, { ...rubric, currency: "eur" }));
    expect(wrong.status).toBe(400);
    expect((await json<{ error: { code: string; message: string } }>(wrong)).error).toMatchObject({ code: "rubric_mismatch" });
    const bad = await postImport({ ...importBody(runId, results, rubric), run_id: "run_short" });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await json(bad))).toContain("run_id");
    expect((await call(`/admin/runs/${runId}`, { headers: admin })).status).toBe(404);
  });
});
