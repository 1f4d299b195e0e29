export { buildResults, replayLine, ResultsInputError, SUCCESS_RULE } from "./build";
export { decide, EXIT_CODES, type Decision, type DecisionFacts } from "./decide";
export { REPLY_EXCERPT_CHARS, replyExcerpt, utf8Bytes } from "./excerpt";
export * from "./input";
export { formatMoney } from "./money";
export { serializeResults } from "./serialize";
export { shellLine, shellQuote } from "./shell";
export { signalExitCode } from "./signals";
export * from "./types";
