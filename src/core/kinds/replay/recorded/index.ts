// Replay worlds' pure rules (docs/replay.md): matching a call to production's recordings, answering it, counting.
export { matchCall, normalValue, normalArgs, holdsArguments, type Match, type Recorded, type Normal } from "./match";
export { answerReplayCall, asToolResult, UNRECORDED_PREFIX, type ReplayAnswer } from "./answer";
export { tallyCalls, type ReplayTally } from "./tally";
export { replayBlock, replaySeed, replayWorldBlock, REPLAY_CLOCK, type ReplayWorldBlock } from "./world-block";
export { toolCallsOfTrace, type TracedCall } from "./trace";
