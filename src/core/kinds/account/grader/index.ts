// The grader's public API: one implementation used by the CLI (passk, selftest) and the Worker (grade endpoint,
// hosted runs). Rules and vocabulary: docs/grading.md.
export { gradeWorld, UnknownTicket, type GradeWorldOptions, type Replies } from "./world";
export { gradeRun, mergeWorlds, type RunWorld } from "./run";
export { gradeTask, type TaskInput } from "./task";
export { deriveActions, type DerivedActions } from "./actions";
export { detectClaims, backClaim, handoffSentence, sentencesOf, type DetectedClaim } from "./claims";
export { parseInvariant, checkInvariants, countOf, InvalidInvariant, INVARIANT_OPS, COMPARATORS, type Invariant, type InvariantParse } from "./invariants";
export { readDesk, type DeskView, type DeskComment } from "./desk";
export { formatMoney, amountsIn } from "./money";
export type { WorldObjects } from "./objects";
export * from "./types";
