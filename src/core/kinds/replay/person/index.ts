// The simulated person (docs/replay.md): the brief and facts it plays from, and one turn of its conversation.
export * from "./schema";
export { respondAsPerson, PERSON_SEED, type PersonModel, type PersonTurnInput, type PersonTurnResult, type PersonUsage } from "./respond";
export { PERSON_ASKED, PERSON_REPLY } from "./prompt";
export { personTraceRow, PERSON_TRACE_SERVICE, type PersonTraceRow } from "./trace";
export { transcriptOf, type TranscriptMessage } from "./transcript";
