// The grader's evidence names diff entries by reference (type, id, op, changed field paths); the results keep
// the entries themselves, so a report read months later shows the refund's amount and the charge it hit.
import type { DiffEntry, WorldDiff } from "../world/diff/types";
import type { TaskGrade as GraderTaskGrade } from "../kinds/account/grader/types";
import type { Evidence } from "./input";

/** Evidence for one graded task: its entries resolved against the world's diff, the reason first among the notes. */
export function evidenceFromGrade(grade: GraderTaskGrade, diff: WorldDiff): Evidence {
  const byKey = new Map(diff.entries.map((e) => [`${e.type}\u0000${e.id}`, e]));
  return {
    diff: grade.evidence.entries.map((ref) => {
      const full = byKey.get(`${ref.type}\u0000${ref.id}`);
      // A reference the diff does not hold is kept as it came (the report shows what it can), not dropped.
      return full ? trimEntry(full) : { ...ref };
    }),
    reply_sentences: [...grade.evidence.sentences],
    notes: [grade.reason, ...grade.evidence.notes].filter((n) => n.length > 0),
  };
}

/** Updates keep only the changed fields (the full objects can be large); creations and deletions keep the object. */
function trimEntry(e: DiffEntry): Evidence["diff"][number] {
  const base = { type: e.type, id: e.id, op: e.op, customer: e.customer, request_ids: [...e.request_ids] };
  if (e.op === "updated") return { ...base, fields: e.fields ?? {} };
  if (e.op === "created") return { ...base, after: e.after };
  return { ...base, before: e.before };
}
