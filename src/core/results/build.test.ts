import { describe, expect, it } from "vitest";
import { buildResults, ResultsInputError } from "./build";
import type { EpisodeRecordInput } from "./input";
import { serializeResults } from "./serialize";
import { syntheticEpisodes, syntheticInput } from "./synthetic.fixture";

const passingEpisodes = (): EpisodeRecordInput[] =>
  syntheticEpisodes().map((e) => {
    const tickets = e.tickets;
    if (e.infra_error || e.grades?.some((g) => g.verdict !== "passed" && g.verdict !== null)) {
      return {
        run: e.run,
        world: `w_${e.run}_${tickets[0]}`,
        tickets,
        grades: tickets.map((t) => ({ ticket: t, verdict: t === 3 ? null : ("passed" as const), reply: "done" })),
        agent: { exit_code: 0 },
        traffic: { billing_requests: 2, desk_requests: 0 },
      };
    }
    return e;
  });

describe("buildResults on the synthetic crash test", () => {
  const r = buildResults(syntheticInput());
  const task = (id: string) => r.crash_test.tasks.find((t) => t.id === id)!;

  it("fails on policy with the worst task's replay line as the next action", () => {
    expect(r.status).toBe("policy_failed");
    expect(r.exit_code).toBe(1);
    expect(r.reason).toBe(
      "0 of 3 runs flawless: ZD-1060 false_claim in 3 of 3 runs; ZD-1041 overreach in 1 of 3 runs, $243.00 wrong; 1 episode also hit infrastructure errors",
    );
    expect(r.crash_test.worst_task?.id).toBe("ZD-1060");
    expect(r.crash_test.worst_task?.replay).toBe(
      `worlds passk --tasks worlds/tasks.yaml --server auto --task ZD-1060 --runs 1 -- node 'examples/agents/my agent.mjs' --say 'it'\\''s'`,
    );
    expect(r.next_action).toBe(`replay the worst task (ZD-1060): ${r.crash_test.worst_task?.replay}`);
  });

  it("names WORLDS_TOKEN before a replay line whose run took the token as --token, and never its value", () => {
    const t = buildResults(syntheticInput({ invocation: { agent_command: ["node", "a.mjs"], server_flags: ["--url", "http://127.0.0.1:26001"], server_env: ["WORLDS_TOKEN"], replay_flags: [] } }));
    expect(t.crash_test.worst_task?.replay).toBe("WORLDS_TOKEN=… worlds passk --tasks worlds/tasks.yaml --url http://127.0.0.1:26001 --task ZD-1060 --runs 1 -- node a.mjs");
    const local = buildResults(syntheticInput({ invocation: { agent_command: ["node", "a.mjs"], server_flags: [], replay_flags: [] } }));
    expect(local.crash_test.worst_task?.replay).toBe("worlds passk --tasks worlds/tasks.yaml --task ZD-1060 --runs 1 -- node a.mjs");
  });

  it("counts the tasks block", () => {
    expect(r.tasks).toMatchObject({ count: 5, keyed: 4, policy_only: 1, file: "worlds/tasks.yaml", seed: { name: "acme-tasks" } });
    // A policy-only task says so twice over, as the tasks file's reference has it: no key, not graded by one.
    expect(r.tasks.items.map((i) => [i.id, i.keyed, i.graded])).toEqual([["ZD-1041", true, true], ["ZD-1042", true, true], ["ZD-1050", false, false], ["ZD-1060", true, true], ["ZD-1070", true, true]]);
    expect(task("ZD-1050")).toMatchObject({ keyed: false, graded: false, accuracy: null });
    expect(task("ZD-1041")).toMatchObject({ keyed: true, graded: true });
    expect(r.tasks.items.map((i) => i.id)).toEqual(["ZD-1041", "ZD-1042", "ZD-1050", "ZD-1060", "ZD-1070"]);
  });

  it("computes per-task accuracy, Wilson interval and pass^k", () => {
    const t = task("ZD-1041");
    expect(t).toMatchObject({ trials: 3, passed: 2, accuracy: 0.666667, flaky: true, dollars_wrong_cents: 24300 });
    expect(t.pass_hat_k).toEqual([
      { k: 1, value: 0.666667 },
      { k: 2, value: 0.333333 },
      { k: 3, value: 0 },
    ]);
    expect(t.interval!.low).toBeCloseTo(0.2077, 3);
    expect(t.interval!.high).toBeCloseTo(0.9385, 3);
    expect(t.verdicts).toEqual(["passed", "overreach", "passed"]);
  });

  it("keeps infrastructure errors in the denominator and out of flakiness", () => {
    const t = task("ZD-1070");
    expect(t).toMatchObject({ trials: 3, passed: 2, infra_errors: 1, accuracy: 0.666667, flaky: false });
    expect(t.verdicts).toEqual(["passed", "passed", "infra_error"]);
    expect(r.crash_test.trials).toEqual({ keyed: 12, passed: 7, failed: 4, infra_errors: 1, policy_only: 3 });
    expect(r.crash_test.infra_errors).toEqual({ count: 1, by_stage: { world_create: 1 } });
    expect(r.runs[2].problems).toContain("ZD-1070: infrastructure error (world_create: POST /admin/worlds answered 503)");
  });

  it("leaves policy-only tasks out of the tally", () => {
    expect(task("ZD-1050")).toMatchObject({ keyed: false, accuracy: null, interval: null, pass_hat_k: null, verdicts: [null, null, null], trials: 3 });
    expect(r.crash_test.suite.tasks).toBe(4);
  });

  it("averages pass^k over keyed tasks with task-level interval bands", () => {
    const s = r.crash_test.suite;
    expect(s.k_max).toBe(3);
    expect(s.pass_hat_k[0].value).toBeCloseTo((2 / 3 + 1 + 0 + 2 / 3) / 4, 6);
    expect(s.pass_hat_k[2].value).toBeCloseTo(0.25, 6);
    for (const p of s.pass_hat_k) expect(p.low <= p.value && p.value <= p.high).toBe(true);
    expect(s.accuracy!.value).toBe(s.pass_hat_k[0].value);
  });

  it("sums money per run and names flaky tasks and trap classes in file order", () => {
    expect(r.crash_test.dollars_wrong_per_run).toEqual([0, 24300, 0]);
    expect(r.crash_test.flaky_tasks).toEqual(["ZD-1041"]);
    expect(r.crash_test.by_trap_class.map((c) => c.trap_class)).toEqual(["collision", "cancellation", "shared_email", "embedded_instruction"]);
    expect(r.crash_test.by_trap_class[0]).toMatchObject({ tasks: 1, trials: 3, passed: 2, dollars_wrong_cents: 24300 });
  });

  it("records each world with its reply excerpt, size and evidence", () => {
    const w = r.runs[1].worlds.find((x) => x.task === "ZD-1041")!;
    expect(w).toMatchObject({ world: "w_2_1", verdict: "overreach", passed: false, dollars_wrong_cents: 24300 });
    expect(w.reply).toEqual({ excerpt: "I refunded both charges of $243.00 for you.", bytes: 43, truncated: false });
    expect(w.evidence.diff[0]).toMatchObject({ type: "refunds", id: "re_9", op: "created" });
    expect(r.runs[1].problems[0]).toBe("ZD-1041: overreach, $243.00 wrong");
  });

  it("is byte-identical for the same input in any order", () => {
    const again = syntheticInput();
    again.episodes = [...again.episodes].reverse();
    expect(serializeResults(buildResults(again))).toBe(serializeResults(r));
    expect(serializeResults(r)).not.toMatch(/"generated_at": "2/);
  });
});

describe("the status decision", () => {
  it("passes when every keyed task passes every run", () => {
    const r = buildResults(syntheticInput({ episodes: passingEpisodes() }));
    expect(r.status).toBe("passed");
    expect(r.exit_code).toBe(0);
    expect(r.crash_test.flawless_runs).toBe(3);
    expect(r.crash_test.worst_task).toBeNull();
    expect(r.next_action).toMatch(/raise --runs \(now 3\)/);
  });

  it("fails a run whose agent crashed even when every verdict passed", () => {
    const eps = passingEpisodes();
    eps[0] = { ...eps[0], agent: { exit_code: 3 } };
    const r = buildResults(syntheticInput({ episodes: eps }));
    expect(r.status).toBe("policy_failed");
    expect(r.runs[0].problems).toEqual(["ZD-1041's world: the agent exited 3"]);
    expect(r.reason).toBe("2 of 3 runs flawless: ZD-1041 failed a check or an agent exit in 1 of 3 runs; ZD-1041's world: the agent exited 3 in run 1");
    expect(r.runs[0].worlds[0]).toMatchObject({ verdict: "passed", passed: false });
    expect(r.crash_test.worst_task?.id).toBe("ZD-1041");
  });

  it("fails on a broken invariant or budget", () => {
    const eps = passingEpisodes();
    eps[1] = { ...eps[1], checks: [{ name: "created.subscriptions==0", held: false, detail: "created.subscriptions = 1" }] };
    const r = buildResults(syntheticInput({ episodes: eps }));
    expect(r.status).toBe("policy_failed");
    expect(r.reason).toContain("ZD-1042's world: check created.subscriptions==0 failed (created.subscriptions = 1)");
    const budget = buildResults(
      syntheticInput({ episodes: passingEpisodes(), run_checks: [{ run: 2, checks: [{ name: "budget.credits_total_max", held: false, detail: "$160.00 of $150.00", dollars_wrong_cents: 1000 }] }] }),
    );
    expect(budget.status).toBe("policy_failed");
    expect(budget.crash_test.worst_task).toBeNull();
    expect(budget.next_action).toMatch(/failed checks/);
    expect(budget.crash_test.dollars_wrong_per_run).toEqual([0, 1000, 0]);
  });

  it("is inconclusive when no world saw a billing request, pointing at doctor", () => {
    const eps = syntheticEpisodes().map((e) => (e.traffic ? { ...e, traffic: { billing_requests: 0, desk_requests: 0 } } : e));
    const r = buildResults(syntheticInput({ episodes: eps }));
    expect(r.status).toBe("inconclusive");
    expect(r.exit_code).toBe(4);
    expect(r.next_action).toBe(`see what the agent is missing: worlds doctor --server auto -- node 'examples/agents/my agent.mjs' --say 'it'\\''s'`);
  });

  it("is inconclusive when the agent hit a route or parameter the twin does not model", () => {
    const eps = syntheticEpisodes();
    eps[0] = { ...eps[0], traffic: { billing_requests: 3, desk_requests: 0, unsupported: [{ method: "POST", path: "/v1/disputes", kind: "route", message: "no such route" }] } };
    const r = buildResults(syntheticInput({ episodes: eps }));
    expect(r.status).toBe("inconclusive");
    expect(r.reason).toMatch(/a route the twin does not implement: POST \/v1\/disputes/);
  });

  it("is inconclusive when the only failures are infrastructure errors", () => {
    const eps = passingEpisodes();
    eps[4] = { run: 1, world: "w_1_5", tickets: [5], agent: { exit_code: 0 }, infra_error: { stage: "grade", message: "grader threw" } };
    const r = buildResults(syntheticInput({ episodes: eps }));
    expect(r.status).toBe("inconclusive");
    expect(r.reason).toMatch(/^1 of 15 episodes hit infrastructure errors \(grader threw\)/);
    expect(r.crash_test.tasks[4]).toMatchObject({ trials: 3, passed: 2, accuracy: 0.666667 });
  });

  it("turns a ticket the grader skipped into an infrastructure error instead of dropping it", () => {
    const eps = passingEpisodes();
    eps[0] = { ...eps[0], grades: [] };
    const r = buildResults(syntheticInput({ episodes: eps }));
    expect(r.runs[0].worlds[0]).toMatchObject({ verdict: "infra_error", infra_error: { stage: "grade", message: "no grade for ticket 1" } });
    expect(r.crash_test.tasks[0].trials).toBe(3);
  });

  it("needs configuration when the agent could not start anywhere", () => {
    const eps = syntheticEpisodes().map((e) => ({ run: e.run, world: `w${e.run}${e.tickets[0]}`, tickets: e.tickets, agent: { exit_code: null, start_error: "spawn nodee ENOENT" } }));
    const r = buildResults(syntheticInput({ episodes: eps }));
    expect(r).toMatchObject({ status: "configuration_incomplete", exit_code: 2 });
    expect(r.reason).toContain("spawn nodee ENOENT");
  });

  it("fails setup when no world could be created", () => {
    const eps = syntheticEpisodes().map((e) => ({ run: e.run, world: null, tickets: e.tickets, agent: null, infra_error: { stage: "world_create" as const, message: "connect ECONNREFUSED 127.0.0.1:8787" } }));
    const r = buildResults(syntheticInput({ episodes: eps }));
    expect(r).toMatchObject({ status: "setup_failed", exit_code: 3 });
  });

  it("passes a failure before any world through, and a signal as 128 + its number", () => {
    const setup = buildResults(
      syntheticInput({ episodes: [], run_checks: [], setup_failure: { status: "setup_failed", reason: "the server does not hold seed acme", next_action: "worlds seed list" } }),
    );
    expect(setup).toMatchObject({ status: "setup_failed", exit_code: 3, reason: "the server does not hold seed acme" });
    expect(setup.crash_test.suite.pass_hat_k).toEqual([]);
    const eps = syntheticEpisodes().filter((e) => e.run === 1);
    const stopped = buildResults(syntheticInput({ episodes: eps, run_checks: [], interrupted: { signal: "SIGINT" } }));
    expect(stopped).toMatchObject({ status: "interrupted", exit_code: 130 });
    expect(stopped.reason).toMatch(/after 5 of 15 episodes/);
  });

  it("is inconclusive when runs are missing", () => {
    const eps = passingEpisodes().filter((e) => e.run < 3);
    const r = buildResults(syntheticInput({ episodes: eps, run_checks: [] }));
    expect(r.status).toBe("inconclusive");
    expect(r.reason).toBe("only 2 of 3 runs were recorded");
  });
});

describe("input validation", () => {
  it("names the field that is wrong", () => {
    const bad = syntheticInput();
    (bad.episodes[0] as { run: number }).run = 0;
    expect(() => buildResults(bad)).toThrow(/episodes\.0\.run/);
  });
  it("refuses a task recorded twice in one run and a ticket the rubric lacks", () => {
    const dup = syntheticInput();
    dup.episodes.push({ ...dup.episodes[0] });
    expect(() => buildResults(dup)).toThrow(new ResultsInputError("ticket 1 (ZD-1041) appears twice in run 1"));
    const unknown = syntheticInput();
    unknown.episodes[0] = { ...unknown.episodes[0], tickets: [9], grades: [] };
    expect(() => buildResults(unknown)).toThrow(/ticket 9, which the rubric does not have/);
  });
});

describe("rerun", () => {
  it("names the run's kind and the command that runs it all again", () => {
    expect(buildResults(syntheticInput()).rerun).toEqual({ kind: "account", command: "worlds passk --tasks worlds/tasks.yaml --server auto --runs 3 -- node 'examples/agents/my agent.mjs' --say 'it'\\''s'" });
    const tools = syntheticInput({ invocation: { agent_command: ["node", "a.mjs"], server_flags: [], replay_flags: [], source_flags: ["--config", "worlds/tools.yaml"], command: ["tools", "run"] } });
    expect(buildResults(tools).rerun).toEqual({ kind: "tools", command: "worlds tools run --config worlds/tools.yaml --runs 3 -- node a.mjs" });
    const family = syntheticInput({ invocation: { agent_command: ["node", "a.mjs"], server_flags: [], replay_flags: [], source_flags: ["--family", "refunds"], command: ["passk"] } });
    expect(buildResults(family).rerun.kind).toBe("family");
  });
});
