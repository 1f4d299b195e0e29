// The replay kind's catalogue: the recorded tools, answered by the replay rules (src/core/kinds/replay/recorded/answer.ts).
// Every write is logged as a record of the store (tool, arguments, how production's recording matched it), so
// the world's diff is the list of the run's writes. Lookups change nothing; the trace keeps every call.
import { answerReplayCall } from "../../src/core/kinds/replay/recorded/answer";
import { replayWorldBlock, type ReplayWorldBlock } from "../../src/core/kinds/replay/recorded/world-block";
import type { ToolCatalogue, ToolCallContext, ToolDefinition, ToolOutcome } from "../surface/catalogue";
import type { Store } from "../store/store";
import { REPLAY_BLOCK_META } from "./seed";

// Parsed once per isolate per block text: every call reads it.
let lastText = "";
let lastBlock: ReplayWorldBlock | null = null;

function blockOf(store: Store): ReplayWorldBlock | null {
  const text = store.meta(REPLAY_BLOCK_META);
  if (!text) return null;
  if (text !== lastText) {
    lastBlock = replayWorldBlock.parse(JSON.parse(text));
    lastText = text;
  }
  return lastBlock;
}

export const replayCatalogue: ToolCatalogue = {
  list(store) {
    return (blockOf(store)?.tools ?? []).map((t): ToolDefinition => ({ name: t.name, description: t.description, inputSchema: t.inputSchema as ToolDefinition["inputSchema"], effect: t.effect }));
  },

  call(ctx: ToolCallContext, name: string, args: Record<string, unknown>): ToolOutcome {
    const block = blockOf(ctx.store);
    if (!block) return { ok: false, error: { code: "unavailable", message: "This world holds no replay block." } };
    const answer = answerReplayCall(block, name, args);
    if (!answer.write || !answer.match) return answer.outcome;
    const match = answer.match;
    return ctx.transact(() => {
      const id = ctx.store.newId("rec");
      ctx.store.insert("records", { id, object: "record", tool: name, status: "written", arguments: args, match: match.kind, request: ctx.requestId }, null);
      return answer.outcome;
    });
  },
};
