// An episode as the results builder takes it: the grader's world grade translated into the results contract's
// records, and every way an episode can go wrong named as its infrastructure error (never dropped). The CLI's
// process agents and the Worker's HTTP agents end in the same record.
import type { WorldDiff } from "../world/diff/types";
import { gradeWorld, readDesk, type WorldGrade, type WorldObjects } from "../kinds/account/grader/index";
import { evidenceFromGrade, REPLY_EXCERPT_CHARS, utf8Bytes, type AgentOutcome, type Check, type EpisodeRecordInput, type GraderVerdict, type InfraError, type Traffic } from "../results/index";
import type { RubricDocument } from "../rubric/schema";
import type { RunMode } from "./plan";

/** Grades one world: the agent's reply stands for each ticket it held in isolated mode; shift mode reads the desk. */
export function gradeEpisode(rubric: RubricDocument, objects: WorldObjects, mode: RunMode, tickets: number[], diff: WorldDiff, reply: string): WorldGrade {
  const replies = mode === "isolated" ? Object.fromEntries(tickets.map((t) => [String(t), reply])) : {};
  return gradeWorld(rubric, diff, replies, { mode, tickets, objects });
}

export interface GradedEpisode {
  repetition: number;
  tickets: number[];
  mode: RunMode;
  world: string;
  agent: AgentOutcome;
  /** The reply as kept (trimmed, at most the agent's reply limit). */
  reply: string;
  /** Size in UTF-8 bytes of everything the agent produced, when more was produced than `reply` holds. */
  replyBytes: number | null;
  grade: WorldGrade;
  diff: WorldDiff;
  traffic: Traffic | null;
}

export function gradedRecord(e: GradedEpisode): EpisodeRecordInput {
  const grades = e.grade.tasks.map((t) => {
    const desk = e.mode === "shift" ? readDesk(e.diff, t.ticket, {}) : null;
    const deskReply = desk ? desk.comments.filter((c) => c.public).map((c) => c.body).join("\n\n") : null;
    return {
      ticket: t.ticket,
      // The grader's vocabulary must match the results contract's; a verdict the contract lacks is refused by
      // buildResults with the field named, rather than being renamed here.
      verdict: (t.graded ? t.verdict : null) as GraderVerdict | null,
      dollars_wrong_cents: t.dollars_wrong,
      // Only an excerpt is ever shown, so a thousand large replies need not stay in memory until the end.
      reply: e.mode === "isolated" ? keep(e.reply) : deskReply ? keep(deskReply) : null,
      reply_bytes: e.mode === "isolated" ? (e.replyBytes ?? bytesIfCut(e.reply)) : deskReply ? bytesIfCut(deskReply) : null,
      status_after: t.terminal_status.status,
      // The entries themselves (customer, the fields changed, the request ids), not the grader's bare references.
      evidence: evidenceFromGrade(t, e.diff),
    };
  });
  const checks: Check[] = [
    ...e.grade.invariants.map((i) => ({ name: `invariant ${i.invariant}`, held: i.ok, detail: `${i.invariant}: ${i.actual}`, dollars_wrong_cents: 0 })),
    ...e.grade.harm.map((h) => ({ name: "outside the rubric", held: false, detail: `${h.customer}: ${h.summary}`, dollars_wrong_cents: h.amount })),
  ];
  return { run: e.repetition, world: e.world, tickets: e.tickets, grades, agent: e.agent, traffic: e.traffic, checks };
}

/** An episode that could not be run or graded: its tickets stay in the denominators as infrastructure errors. */
export function infraRecord(repetition: number, tickets: number[], world: string | null, error: InfraError, agent: AgentOutcome | null = null, traffic: Traffic | null = null): EpisodeRecordInput {
  return { run: repetition, world, tickets, agent, traffic, infra_error: { stage: error.stage, message: error.message } };
}

const KEPT_REPLY_CHARS = 4 * REPLY_EXCERPT_CHARS;
const keep = (s: string) => (s.length > KEPT_REPLY_CHARS ? s.slice(0, KEPT_REPLY_CHARS) : s);
const bytesIfCut = (s: string) => (s.length > KEPT_REPLY_CHARS ? utf8Bytes(s) : null);

/** Credits a world made, kept per episode so the budget can be asserted over a run's worlds afterwards. */
export interface Credits {
  total: number;
  count: number;
}

/** The run's budget, asserted across every world of the run (credits summed), as a run-level check. */
export function budgetCheck(rubric: RubricDocument, credits: readonly Credits[]): { name: string; held: boolean; detail: string } | null {
  const b = rubric.budget;
  if (!b || (b.credits_total_max === undefined && b.credits_count_max === undefined)) return null;
  const total = credits.reduce((s, c) => s + c.total, 0);
  const count = credits.reduce((s, c) => s + c.count, 0);
  const held = (b.credits_total_max === undefined || total <= b.credits_total_max) && (b.credits_count_max === undefined || count <= b.credits_count_max);
  // What was spent beside what was allowed, in words that read right whether the budget held or not.
  const limits = [
    b.credits_total_max !== undefined ? `${total} cents of credits, ${b.credits_total_max} allowed` : null,
    b.credits_count_max !== undefined ? `${count} credit${count === 1 ? "" : "s"}, ${b.credits_count_max} allowed` : null,
  ].filter(Boolean);
  return { name: "budget", held, detail: `${held ? "within budget" : "over budget"}: ${limits.join("; ")}` };
}

/** One line for progress output: each task's verdict, or the infrastructure error. */
export function episodeNote(grade: WorldGrade | null, record: EpisodeRecordInput): string {
  if (record.infra_error) return `infrastructure error (${record.infra_error.stage}): ${record.infra_error.message}`;
  if (!grade) return "not graded";
  return grade.tasks.map((t) => `${t.label} ${t.graded ? t.verdict : "policy"}`).join(", ");
}

/** Keyed trials in a graded world that count as passed so far (verdict passed; the agent's exit is judged at the end). */
export function trialCounts(grade: WorldGrade | null): { passed: number; graded: number } {
  if (!grade) return { passed: 0, graded: 0 };
  const graded = grade.tasks.filter((t) => t.graded);
  return { passed: graded.filter((t) => t.verdict === "passed").length, graded: graded.length };
}
