// Tasks that carry no billing key (generated tools tasks, portable evals tasks) as rubric tickets, ticket n = task
// n, so the shared results builder counts and reports them like keyed tasks: nothing expected of the account, the
// task's own line of what passing means, and its slices (trap class, tags).
import type { RubricDocument } from "./schema";

export interface TaskTicket {
  label: string;
  subject: string;
  requester: { email: string; name: string };
  /** What passing means, in one line (the report's "expected"). */
  line: string;
  trap_class: string;
  tags: string[];
}

const SUBJECT_CHARS = 120;
/** A subject line from a task's text: at most 120 characters, cut with an ellipsis. */
export const subjectOf = (text: string): string => (text.length > SUBJECT_CHARS ? `${text.slice(0, SUBJECT_CHARS - 3)}...` : text);

export function taskTicketsRubric(seed: { name: string; hash: string }, tickets: readonly TaskTicket[]): RubricDocument {
  return {
    version: 1,
    seed: { name: seed.name, hash: seed.hash },
    currency: "usd",
    mode: "isolated",
    invariants: [],
    budget: null,
    plan_names: [],
    tickets: tickets.map((t, i) => ({
      id: i + 1,
      label: t.label,
      subject: t.subject,
      requester: t.requester,
      customer: null,
      candidates: [],
      decoys: [],
      claim: "none",
      expect: { action: "none", amount: null, target: null, target_any: [], price: null, line: t.line },
      terminal_status: ["solved"],
      trap_class: t.trap_class,
      priority: "normal",
      tags: t.tags,
    })),
  };
}
