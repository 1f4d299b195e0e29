// Builds the results document from the compiled tasks and the episodes. Pure and deterministic: the same
// input gives the same bytes (fixed key order, file order, run order; no clock unless one is passed in).
import type { RubricTicket } from "../rubric/schema";
import { canonicalJson } from "../util/canonical";
import { dict } from "../util/safe-tree";
import { isFlaky, passHatK, pickWorst, wilson } from "../stats/index";
import { decide, type DecisionFacts, type Tally } from "./decide";
import { replyExcerpt } from "./excerpt";
import { buildInput, INFRA_ERROR, type BuildInput, type BuildInputRaw, type Check, type EpisodeRecord, type Evidence, type InfraError, type UnsupportedCall } from "./input";
import { formatMoney } from "./money";
import { judgeBlock, worldJudge } from "./judge";
import { neverPassed, trialMark } from "./pattern";
import { commandLine, shellLine } from "./shell";
import {
  RESULTS_SCHEMA,
  type CrashTest,
  type Results,
  type RunResult,
  type TaskItem,
  type TaskStats,
  type TrapClassStats,
  type WorldResult,
  type WorstTask,
  type RunKind,
} from "./types";

export const SUCCESS_RULE =
  "a keyed task's trial succeeds when the grader's verdict is passed, the agent in its world exited 0 in time, and every check in that world held; an infrastructure error is a trial that did not succeed";

export class ResultsInputError extends Error {}

/** Parses the input at the boundary (zod) and builds the results; throws ResultsInputError naming the field. */
export function buildResults(raw: BuildInputRaw): Results {
  const parsed = buildInput.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.slice(0, 5).map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`);
    throw new ResultsInputError(`results input is malformed:\n  ${lines.join("\n  ")}`);
  }
  return build(parsed.data);
}

interface Trial {
  run: number;
  entry: WorldResult;
  keyed: boolean;
}

function build(input: BuildInput): Results {
  const { rubric } = input;
  const currency = rubric.currency;
  const tickets = [...rubric.tickets].sort((a, b) => a.id - b.id);
  const byId = new Map(tickets.map((t) => [t.id, t]));
  const keyed = (t: RubricTicket) => t.expect !== null;
  const episodes = [...input.episodes].sort((a, b) => a.run - b.run || a.tickets[0] - b.tickets[0]);
  checkEpisodes(episodes, byId);

  const runIndexes = [...new Set([...episodes.map((e) => e.run), ...input.run_checks.map((r) => r.run)])].sort((a, b) => a - b);
  const runChecks = new Map(input.run_checks.map((r) => [r.run, r.checks.map(copyCheck)]));
  const trialsByTicket = new Map<number, Trial[]>(tickets.map((t) => [t.id, []]));
  const runs: RunResult[] = [];
  /** Problems no single task's verdict owns (agent exits, failed checks), with the runs they happened in. */
  const runLevel = new Map<string, number[]>();

  for (const index of runIndexes) {
    const runEpisodes = episodes.filter((e) => e.run === index);
    const worlds: WorldResult[] = [];
    const taskProblems: { position: number; line: string }[] = [];
    const episodeProblems: string[] = [];
    let dollars = 0;
    for (const ep of runEpisodes) {
      const infra = episodeInfra(ep);
      const agentProblem = ep.agent && !infra ? describeAgentFailure(ep.agent) : null;
      const checks = ep.checks.map(copyCheck);
      const checksHeld = checks.every((c) => c.held);
      const where = ep.tickets.length === 1 ? `${byId.get(ep.tickets[0])!.label}'s world` : "the world";
      if (agentProblem) episodeProblems.push(`${where}: the agent ${agentProblem}`);
      for (const c of checks) if (!c.held) episodeProblems.push(`${where}: check ${c.name} failed${c.detail ? ` (${c.detail})` : ""}`);
      dollars += sum(checks.map((c) => c.dollars_wrong_cents));
      for (const [n, ticketId] of ep.tickets.entries()) {
        const ticket = byId.get(ticketId)!;
        const grade = infra ? undefined : ep.grades.find((g) => g.ticket === ticketId);
        const verdict = infra ? INFRA_ERROR : grade!.verdict;
        const passed = keyed(ticket) ? !infra && verdict === "passed" && agentProblem === null && checksHeld : null;
        const entry: WorldResult = {
          task: ticket.label,
          position: ticket.id,
          world: ep.world,
          verdict: keyed(ticket) || infra ? verdict : null,
          passed,
          dollars_wrong_cents: grade?.dollars_wrong_cents ?? 0,
          ...(grade && grade.reward !== null ? { reward: grade.reward } : {}),
          reply: grade?.reply != null ? replyExcerpt(grade.reply, grade.reply_bytes) : null,
          status_after: grade?.status_after ?? null,
          evidence: copyEvidence(grade?.evidence),
          agent: ep.agent ? { ...ep.agent } : null,
          traffic: ep.traffic ? { ...ep.traffic, unsupported: ep.traffic.unsupported.map((u) => ({ ...u })) } : null,
          checks,
          infra_error: infra,
          judge: worldJudge(grade?.judge, keyed(ticket), infra ? INFRA_ERROR : grade!.verdict),
          trace: n === 0 ? ep.trace : null,
        };
        dollars += entry.dollars_wrong_cents;
        worlds.push(entry);
        trialsByTicket.get(ticketId)!.push({ run: index, entry, keyed: keyed(ticket) });
        if (infra) taskProblems.push({ position: ticket.id, line: `${ticket.label}: infrastructure error (${infra.stage}: ${infra.message})` });
        else if (keyed(ticket) && verdict !== "passed") {
          const money = entry.dollars_wrong_cents > 0 ? `, ${formatMoney(entry.dollars_wrong_cents, currency)} wrong` : "";
          const line = `${ticket.label}: ${verdict}${money}`;
          taskProblems.push({ position: ticket.id, line });
        }
      }
    }
    const checks = runChecks.get(index) ?? [];
    const runCheckProblems = checks.filter((c) => !c.held).map((c) => `check ${c.name} failed${c.detail ? ` (${c.detail})` : ""}`);
    for (const p of [...episodeProblems, ...runCheckProblems]) runLevel.set(p, [...(runLevel.get(p) ?? []), index]);
    dollars += sum(checks.map((c) => c.dollars_wrong_cents));
    worlds.sort((a, b) => a.position - b.position);
    const missing = tickets.filter((t) => !worlds.some((w) => w.position === t.id));
    const problems = [
      ...taskProblems.sort((a, b) => a.position - b.position).map((p) => p.line),
      ...episodeProblems,
      ...runCheckProblems,
      ...(missing.length > 0 ? [`${missing.length} task${missing.length === 1 ? "" : "s"} did not run (${missing.map((t) => t.label).join(", ")})`] : []),
    ];
    runs.push({ index, flawless: problems.length === 0, dollars_wrong_cents: dollars, problems, checks, worlds });
  }

  const taskStats = tickets.map((t) => statsFor(t, keyed(t), trialsByTicket.get(t.id)!, runIndexes));
  const commands = suggestedCommands(input);
  const worst = worstTask(taskStats, tickets, input);
  const crash = crashTest(input, runs, taskStats, tickets, worst);
  const decision = decide(decisionFacts(input, episodes, tickets, runs, crash, failureSummary(taskStats, runLevel, currency), commands.doctor, worst));

  return {
    schema: RESULTS_SCHEMA,
    status: decision.status,
    reason: decision.reason,
    next_action: decision.next_action,
    exit_code: decision.exit_code,
    generated_at: input.generated_at,
    mode: input.mode,
    currency,
    agent: { command: [...input.invocation.agent_command], display: shellLine(input.invocation.agent_command) },
    tasks: {
      file: input.tasks.file,
      hashes: { ...input.tasks.hashes },
      seed: { ...rubric.seed },
      pack: input.tasks.pack,
      count: tickets.length,
      keyed: tickets.filter(keyed).length,
      policy_only: tickets.filter((t) => !keyed(t)).length,
      invariants: [...rubric.invariants],
      budget: rubric.budget ? { ...rubric.budget } : null,
      items: tickets.map(taskItem),
    },
    crash_test: crash,
    judge: judgeBlock(input.judge, runs, new Set(tickets.filter(keyed).map((t) => t.id))),
    runs,
    rerun: { kind: runKind(input), command: rerunLine(input) },
  };
}

/** The kind of world the run was on, read from the command that made it (passk --family is a family's). */
function runKind(input: Pick<BuildInput, "invocation">): RunKind {
  const [first] = input.invocation.command ?? ["passk"];
  if (first === "tools" || first === "evals" || first === "family") return first;
  return input.invocation.source_flags?.includes("--family") ? "family" : "account";
}

/** The command that runs the whole run again: every task, as many repetitions as were asked. */
export function rerunLine(input: Pick<BuildInput, "tasks" | "invocation" | "runs_requested">): string {
  const { server_flags, replay_flags, agent_command, agent_flags, source_flags, command } = input.invocation;
  const source = source_flags ?? ["--tasks", input.tasks.file];
  const agent = agent_flags ?? ["--", ...agent_command];
  return shellLine(["worlds", ...(command ?? ["passk"]), ...source, ...server_flags, ...replay_flags, "--runs", String(input.runs_requested), ...agent]);
}

function checkEpisodes(episodes: EpisodeRecord[], byId: Map<number, RubricTicket>): void {
  const seen = new Set<string>();
  for (const ep of episodes) {
    for (const id of ep.tickets) {
      if (!byId.has(id)) throw new ResultsInputError(`episode in run ${ep.run} holds ticket ${id}, which the rubric does not have`);
      const key = `${ep.run}:${id}`;
      if (seen.has(key)) throw new ResultsInputError(`ticket ${id} (${byId.get(id)!.label}) appears twice in run ${ep.run}`);
      seen.add(key);
    }
    for (const g of ep.grades) {
      if (!ep.tickets.includes(g.ticket)) throw new ResultsInputError(`episode in run ${ep.run} grades ticket ${g.ticket}, which its world did not hold`);
    }
  }
}

/**
 * The infrastructure error an episode ended in: the one recorded, else an agent that could not start, else a
 * grade missing for a ticket the world held (a grader that skipped a ticket must not make it vanish).
 */
function episodeInfra(ep: EpisodeRecord): InfraError | null {
  if (ep.infra_error) return { ...ep.infra_error };
  if (ep.agent?.start_error) return { stage: "agent_start", message: ep.agent.start_error };
  if (ep.agent === null) return { stage: "server", message: "the agent was never started in this world" };
  const ungraded = ep.tickets.filter((id) => !ep.grades.some((g) => g.ticket === id));
  if (ungraded.length > 0) return { stage: "grade", message: `no grade for ticket${ungraded.length === 1 ? "" : "s"} ${ungraded.join(", ")}` };
  return null;
}

function describeAgentFailure(a: NonNullable<EpisodeRecord["agent"]>): string | null {
  if (a.timed_out) return "timed out";
  if (a.error) return `failed (${a.error})`;
  if (a.signal) return `was killed by ${a.signal}`;
  if (a.exit_code !== 0) return `exited ${a.exit_code ?? "without a code"}`;
  return null;
}

/**
 * What failed, for the status reason: keyed tasks worst first (the worst task's order), each with its failing
 * verdicts and how often, then the problems no task owns with the runs they hit.
 */
function failureSummary(tasks: TaskStats[], runLevel: Map<string, number[]>, currency: string): string[] {
  const failing = tasks
    .filter((t) => t.keyed && t.trials > 0 && t.passed + t.infra_errors < t.trials)
    .sort((a, b) => a.passed / a.trials - b.passed / b.trials || b.dollars_wrong_cents - a.dollars_wrong_cents || a.position - b.position);
  const lines = failing.map((t) => {
    const words = [...new Set(t.verdicts.filter((v) => v !== null && v !== INFRA_ERROR && v !== "passed"))];
    const failed = t.trials - t.passed - t.infra_errors;
    const what = words.length > 0 ? words.join("/") : "failed a check or an agent exit";
    const money = t.dollars_wrong_cents > 0 ? `, ${formatMoney(t.dollars_wrong_cents, currency)} wrong` : "";
    return `${t.id} ${what} in ${failed} of ${t.trials} runs${money}`;
  });
  for (const [problem, inRuns] of runLevel) lines.push(`${problem} in run${inRuns.length === 1 ? "" : "s"} ${inRuns.join(", ")}`);
  return lines;
}

/** A task's mean reward, only where its grader gives rewards (other kinds' results keep their shape). */
function meanReward(trials: Trial[]): { mean_reward?: number } {
  const rewards = trials.map((x) => x.entry.reward).filter((r): r is number => typeof r === "number");
  return rewards.length ? { mean_reward: round(sum(rewards) / rewards.length) } : {};
}

function statsFor(t: RubricTicket, isKeyed: boolean, trials: Trial[], runIndexes: number[]): TaskStats {
  const n = trials.length;
  const c = trials.filter((x) => x.entry.passed === true).length;
  const infra = trials.filter((x) => x.entry.verdict === INFRA_ERROR).length;
  const byRun = new Map(trials.map((x) => [x.run, x.entry]));
  const accuracy = isKeyed && n > 0 ? c / n : null;
  const interval = isKeyed && n > 0 ? wilson(c, n) : null;
  const outcomes = trials.filter((x) => x.entry.verdict !== INFRA_ERROR).map((x) => `${x.entry.verdict}|${x.entry.passed}`);
  return {
    id: t.label,
    position: t.id,
    keyed: isKeyed,
    graded: isKeyed,
    trials: n,
    passed: c,
    infra_errors: infra,
    accuracy: accuracy === null ? null : round(accuracy),
    interval: interval ? { low: round(interval.low), high: round(interval.high) } : null,
    pass_hat_k: isKeyed && n > 0 ? range(n).map((k) => ({ k, value: round(passHatK(n, c, k)) })) : null,
    verdicts: runIndexes.map((r) => byRun.get(r)?.verdict ?? null),
    dollars_wrong_cents: sum(trials.map((x) => x.entry.dollars_wrong_cents)),
    ...meanReward(trials),
    flaky: isKeyed && isFlaky(outcomes),
    pattern: isKeyed ? runIndexes.map((r) => trialMark(byRun.get(r))).join("") : "",
  };
}

function crashTest(input: BuildInput, runs: RunResult[], tasks: TaskStats[], tickets: RubricTicket[], worst: WorstTask | null): CrashTest {
  const keyedStats = tasks.filter((t) => t.keyed && t.trials > 0);
  const T = keyedStats.length;
  const kMax = T > 0 ? Math.min(...keyedStats.map((t) => t.trials)) : 0;
  // Trials are clustered by task (one agent, one ticket, k tries), so the suite's intervals take the task as
  // the unit (n = T), not the T*k trials, which would be too narrow.
  const suiteCurve = range(kMax).map((k) => {
    const value = sum(keyedStats.map((t) => passHatK(t.trials, t.passed, k))) / T;
    const band = wilson(Math.min(value * T, T), T);
    return { k, value: round(value), low: round(band.low), high: round(band.high) };
  });
  const meanAccuracy = T > 0 ? sum(keyedStats.map((t) => t.passed / t.trials)) / T : null;
  const accBand = meanAccuracy !== null ? wilson(Math.min(meanAccuracy * T, T), T) : null;
  const keyedTrials = sum(tasks.filter((t) => t.keyed).map((t) => t.trials));
  const keyedPassed = sum(tasks.filter((t) => t.keyed).map((t) => t.passed));
  const keyedInfra = sum(tasks.filter((t) => t.keyed).map((t) => t.infra_errors));
  const stages: Record<string, number> = {};
  const infraEpisodes = input.episodes.map(episodeInfra).filter((e): e is InfraError => e !== null);
  for (const e of [...infraEpisodes].sort((a, b) => (a.stage < b.stage ? -1 : a.stage > b.stage ? 1 : 0))) stages[e.stage] = (stages[e.stage] ?? 0) + 1;
  return {
    runs: runs.length,
    runs_requested: input.runs_requested,
    flawless_runs: runs.filter((r) => r.flawless).length,
    dollars_wrong_per_run: runs.map((r) => r.dollars_wrong_cents),
    dollars_wrong_total_cents: sum(runs.map((r) => r.dollars_wrong_cents)),
    success_rule: SUCCESS_RULE,
    trials: {
      keyed: keyedTrials,
      passed: keyedPassed,
      failed: keyedTrials - keyedPassed - keyedInfra,
      infra_errors: keyedInfra,
      policy_only: sum(tasks.filter((t) => !t.keyed).map((t) => t.trials)),
    },
    infra_errors: { count: infraEpisodes.length, by_stage: stages },
    tasks,
    suite: {
      tasks: T,
      k_max: kMax,
      accuracy: meanAccuracy !== null && accBand ? { value: round(meanAccuracy), low: round(accBand.low), high: round(accBand.high) } : null,
      pass_hat_k: suiteCurve,
    },
    flaky_tasks: tasks.filter((t) => t.flaky).map((t) => t.id),
    always_failing_tasks: tasks.filter((t) => t.keyed && neverPassed(t.pattern)).map((t) => t.id),
    worst_task: worst,
    by_trap_class: trapClasses(tasks, tickets),
  };
}

function trapClasses(tasks: TaskStats[], tickets: RubricTicket[]): TrapClassStats[] {
  const order: string[] = [];
  const groups = new Map<string, TaskStats[]>();
  tickets.forEach((t, i) => {
    if (t.expect === null) return;
    const name = t.trap_class ?? "unclassified";
    if (!groups.has(name)) {
      groups.set(name, []);
      order.push(name);
    }
    groups.get(name)!.push(tasks[i]);
  });
  return order.map((name) => {
    const g = groups.get(name)!;
    const trials = sum(g.map((t) => t.trials));
    const passed = sum(g.map((t) => t.passed));
    const band = trials > 0 ? wilson(passed, trials) : null;
    return {
      trap_class: name,
      tasks: g.length,
      trials,
      passed,
      accuracy: trials > 0 ? round(passed / trials) : null,
      interval: band ? { low: round(band.low), high: round(band.high) } : null,
      dollars_wrong_cents: sum(g.map((t) => t.dollars_wrong_cents)),
    };
  });
}

function worstTask(tasks: TaskStats[], tickets: RubricTicket[], input: BuildInput): WorstTask | null {
  const candidates = tasks
    .filter((t) => t.keyed && t.trials > 0)
    .map((t) => ({ stats: t, position: t.position, accuracy: t.passed / t.trials, dollarsWrongCents: t.dollars_wrong_cents }));
  const w = pickWorst(candidates);
  if (!w) return null;
  const subject = tickets.find((t) => t.id === w.position)!.subject;
  return {
    id: w.stats.id,
    position: w.position,
    subject,
    accuracy: round(w.accuracy),
    dollars_wrong_cents: w.dollarsWrongCents,
    verdicts: [...w.stats.verdicts],
    replay: replayLine(input, w.stats.id),
  };
}

/** The exact command that reruns one task once, with the server and the flags that shaped the episode. */
export function replayLine(input: Pick<BuildInput, "tasks" | "invocation">, taskId: string): string {
  const { server_flags, server_env, replay_flags, agent_command, agent_flags, source_flags, command } = input.invocation;
  const source = source_flags ?? ["--tasks", input.tasks.file];
  const agent = agent_flags ?? ["--", ...agent_command];
  return commandLine(server_env, ["worlds", ...(command ?? ["passk"]), ...source, ...server_flags, ...replay_flags, "--task", taskId, "--runs", "1", ...agent]);
}

function suggestedCommands(input: BuildInput): { doctor: string } {
  // A built-in agent (--model) has no command for doctor to start; what stopped it is on each world's agent.
  if (input.invocation.agent_flags)
    return { doctor: `${commandLine(input.invocation.server_env, ["worlds", "doctor", ...input.invocation.server_flags])} checks the server; the model agent's own errors are each world's agent.error and evidence notes` };
  return { doctor: commandLine(input.invocation.server_env, ["worlds", "doctor", ...input.invocation.server_flags, "--", ...input.invocation.agent_command]) };
}

function decisionFacts(
  input: BuildInput,
  episodes: EpisodeRecord[],
  tickets: RubricTicket[],
  runs: RunResult[],
  crash: CrashTest,
  policyProblems: string[],
  doctor: string,
  worst: WorstTask | null,
): DecisionFacts {
  const tally = (stage: InfraError["stage"]): Tally => {
    const hits = episodes.map(episodeInfra).filter((e): e is InfraError => e?.stage === stage);
    return { count: hits.length, first: hits[0]?.message ?? null };
  };
  const ran = episodes.filter((e) => e.agent !== null && !e.agent.start_error && episodeInfra(e)?.stage !== "world_create");
  const unsupported = new Map<string, UnsupportedCall>();
  for (const e of episodes) for (const u of e.traffic?.unsupported ?? []) {
    const key = `${u.kind} ${u.method} ${u.path}`;
    if (!unsupported.has(key)) unsupported.set(key, u);
  }
  return {
    interrupted: input.interrupted,
    setup_failure: input.setup_failure,
    episodes: episodes.length,
    episodes_expected: input.runs_requested * (input.mode === "shift" ? 1 : tickets.length),
    agent_start_failures: tally("agent_start"),
    world_create_failures: tally("world_create"),
    grade_failures: tally("grade"),
    server_failures: tally("server"),
    agent_ran: ran.length,
    traffic_reported: ran.filter((e) => e.traffic !== null).length,
    billing_traffic: ran.filter((e) => (e.traffic?.billing_requests ?? 0) > 0).length,
    unsupported: [...unsupported.values()],
    policy_problems: policyProblems,
    runs: runs.length,
    flawless_runs: crash.flawless_runs,
    keyed_tasks: tickets.filter((t) => t.expect !== null).length,
    runs_requested: input.runs_requested,
    doctor,
    replay: worst?.replay ?? null,
    worst: worst?.id ?? null,
  };
}

function taskItem(t: RubricTicket): TaskItem {
  return { id: t.label, position: t.id, subject: t.subject, keyed: t.expect !== null, graded: t.expect !== null, expected: t.expect?.line ?? null, trap_class: t.trap_class, metadata: t.metadata ? Object.assign(dict<string | number | boolean | null>(), t.metadata) : null };
}

function copyCheck(c: Check): Check {
  return { name: c.name, held: c.held, detail: c.detail, dollars_wrong_cents: c.dollars_wrong_cents };
}

/** Evidence comes from the grader with whatever key order it built; canonical order keeps the bytes stable. */
function copyEvidence(e: Evidence | undefined): Evidence {
  if (!e) return { diff: [], reply_sentences: [], notes: [] };
  return {
    diff: e.diff.map((d) => JSON.parse(canonicalJson(d)) as Evidence["diff"][number]),
    reply_sentences: [...e.reply_sentences],
    notes: [...e.notes],
  };
}

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i + 1);
}

function sum(xs: number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return s;
}

/** Six decimals: enough for any k we run, and no 0.30000000000000004 in a file people diff. */
function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
