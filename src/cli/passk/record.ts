// An episode as the results builder takes it: the grader's world grade translated into the results contract's
// records, and every way an episode can go wrong named as its infrastructure error (never dropped).
import { gradeWorld, readDesk, type WorldGrade } from "../../core/grader/index";
import { REPLY_EXCERPT_CHARS, type EpisodeRecordInput, type GraderVerdict } from "../../core/results/index";
import { agentSucceeded, type AgentOutcome } from "../agent/runner";
import { describeOutcome } from "../render/outcome";
import type { EpisodeResult, WorldView } from "../episode/episode";
import type { Plan } from "./plan";

export type Mode = "isolated" | "shift";

/** Grades a world while it still exists (called from runEpisode's inspect hook). */
export function gradeView(plan: Plan, mode: Mode, tickets: number[]): (view: WorldView, agent: AgentOutcome) => WorldGrade {
  return (view, agent) => {
    const replies = mode === "isolated" ? Object.fromEntries(tickets.map((t) => [String(t), agent.reply])) : {};
    return gradeWorld(plan.rubric, view.diff, replies, { mode, tickets, objects: plan.objects });
  };
}

export function episodeRecord(run: number, tickets: number[], mode: Mode, ep: EpisodeResult<WorldGrade>): EpisodeRecordInput {
  const base = { run, world: ep.world?.id ?? null, tickets };
  if (ep.create_error) return { ...base, agent: null, infra_error: { stage: "world_create", message: ep.create_error.message } };
  const agent = agentRecord(ep.agent!);
  const traffic = ep.traffic ? { billing_requests: ep.traffic.billing_requests, desk_requests: ep.traffic.desk_requests, unsupported: ep.traffic.unsupported } : null;
  if (!ep.agent!.started) return { ...base, agent, traffic, infra_error: { stage: "agent_start", message: describeOutcome(ep.agent!) } };
  if (ep.inspect_error || !ep.inspected || !ep.diff) {
    const message = ep.inspect_error?.message ?? "the world was not graded";
    return { ...base, agent, traffic, infra_error: { stage: ep.diff ? "grade" : "server", message } };
  }
  const grade = ep.inspected;
  const out = ep.agent!;
  const grades = grade.tasks.map((t) => {
    const desk = mode === "shift" ? readDesk(ep.diff!, t.ticket, {}) : null;
    const deskReply = desk ? desk.comments.filter((c) => c.public).map((c) => c.body).join("\n\n") : null;
    return {
      ticket: t.ticket,
      // The grader's vocabulary must match the results contract's; a verdict the contract lacks is refused by
      // buildResults with the field named, rather than being renamed here.
      verdict: (t.graded ? t.verdict : null) as GraderVerdict | null,
      dollars_wrong_cents: t.dollars_wrong,
      // Only an excerpt is ever shown, so a thousand 256 KiB replies need not stay in memory until the end.
      reply: mode === "isolated" ? keep(out.reply) : deskReply ? keep(deskReply) : null,
      reply_bytes: mode === "isolated" ? (out.reply_truncated ? out.stdout_bytes : bytesIfCut(out.reply)) : deskReply ? bytesIfCut(deskReply) : null,
      status_after: t.terminal_status.status,
      evidence: { diff: t.evidence.entries.map((e) => ({ ...e })), reply_sentences: t.evidence.sentences, notes: [t.reason, ...t.evidence.notes, ...stderrNote(out)] },
    };
  });
  const checks = [
    ...grade.invariants.map((i) => ({ name: `invariant ${i.invariant}`, held: i.ok, detail: `${i.invariant}: ${i.actual}` })),
    ...grade.harm.map((h) => ({ name: "outside the rubric", held: false, detail: `${h.customer}: ${h.summary}`, dollars_wrong_cents: h.amount })),
  ];
  return { ...base, grades, agent, traffic, checks };
}

/** When the agent did not finish cleanly, the end of its stderr is the first thing to read: keep it with the episode. */
function stderrNote(o: AgentOutcome): string[] {
  if (agentSucceeded(o) || !o.stderr.trim()) return [];
  const tail = o.stderr.trimEnd().split("\n").slice(-20).join("\n");
  return [`agent stderr (last lines): ${tail.length > 2000 ? tail.slice(-2000) : tail}`];
}

const KEPT_REPLY_CHARS = 4 * REPLY_EXCERPT_CHARS;
const keep = (s: string) => (s.length > KEPT_REPLY_CHARS ? s.slice(0, KEPT_REPLY_CHARS) : s);
const bytesIfCut = (s: string) => (s.length > KEPT_REPLY_CHARS ? Buffer.byteLength(s, "utf8") : null);

function agentRecord(o: AgentOutcome): NonNullable<EpisodeRecordInput["agent"]> {
  return {
    exit_code: o.exit_code,
    signal: o.signal,
    timed_out: o.timed_out,
    start_error: o.started ? null : (o.spawn_error ? `${o.spawn_error.code}: ${o.spawn_error.message}` : "not started"),
    duration_ms: o.duration_ms,
  };
}

/** The run's budget, asserted across every world of the run (credits summed), as a run-level check. */
export function budgetCheck(plan: Plan, grades: readonly WorldGrade[]): { name: string; held: boolean; detail: string } | null {
  const b = plan.rubric.budget;
  if (!b || (b.credits_total_max === undefined && b.credits_count_max === undefined)) return null;
  const total = grades.reduce((s, g) => s + g.credits.total, 0);
  const count = grades.reduce((s, g) => s + g.credits.count, 0);
  const held = (b.credits_total_max === undefined || total <= b.credits_total_max) && (b.credits_count_max === undefined || count <= b.credits_count_max);
  const limits = [b.credits_total_max !== undefined ? `total ${total} <= ${b.credits_total_max} cents` : null, b.credits_count_max !== undefined ? `count ${count} <= ${b.credits_count_max}` : null].filter(Boolean);
  return { name: "budget", held, detail: `credits ${limits.join(", ")}` };
}
