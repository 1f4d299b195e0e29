// The tools kind's catalogue: the block the world was seeded with, answered by the simulator's rules. What a call
// did is applied here: an expected write moves its record to done, any other accepted write is recorded as a
// side effect (both in the change log, so the diff shows them); the per-episode counters live in meta.
import { toolsWorldBlock, type ToolsWorldBlock } from "../../src/core/tools/world-block";
import { answerCall, type EpisodeState } from "../../src/core/tools/simulate/answer";
import type { ToolCatalogue, ToolCallContext, ToolDefinition, ToolOutcome } from "../surface/catalogue";
import type { Store } from "../store/store";
import { TOOLS_BLOCK_META, TOOLS_STATE_META } from "./seed";

interface Counters {
  calls: number;
  per: Record<string, number>;
  made: string[];
}

// Parsed once per isolate per block text: every call reads it.
let lastText = "";
let lastBlock: ToolsWorldBlock | null = null;

function blockOf(store: Store): ToolsWorldBlock | null {
  const text = store.meta(TOOLS_BLOCK_META);
  if (!text) return null;
  if (text !== lastText) {
    lastBlock = toolsWorldBlock.parse(JSON.parse(text));
    lastText = text;
  }
  return lastBlock;
}

function countersOf(store: Store): Counters {
  const text = store.meta(TOOLS_STATE_META);
  const c = text ? (JSON.parse(text) as Counters) : { calls: 0, per: {}, made: [] };
  c.per = Object.assign(Object.create(null) as Record<string, number>, c.per);
  return c;
}

const definitionOf = (t: ToolsWorldBlock["definitions"][number]): ToolDefinition => ({
  name: t.name,
  ...(t.title ? { title: t.title } : {}),
  description: t.description,
  inputSchema: t.inputSchema as ToolDefinition["inputSchema"],
  ...(t.outputSchema ? { outputSchema: t.outputSchema as ToolDefinition["inputSchema"] } : {}),
  effect: t.effect,
});

export const toolsCatalogue: ToolCatalogue = {
  list(store) {
    return blockOf(store)?.definitions.map(definitionOf) ?? [];
  },

  call(ctx: ToolCallContext, name: string, args: Record<string, unknown>): ToolOutcome {
    const block = blockOf(ctx.store);
    if (!block) return { ok: false, error: { code: "unavailable", message: "This world holds no tools block." } };
    const counters = countersOf(ctx.store);
    const made = new Set(counters.made);
    const state: EpisodeState = {
      calls: counters.calls,
      callsOf: (n) => counters.per[n] ?? 0,
      made: (k) => made.has(k),
      recordStatus: (r) => (ctx.store.get("records", r)?.status as string | undefined) ?? null,
    };
    const answer = answerCall(block, { name, arguments: args }, state, ctx.store.now());
    if (!answer.counted) return answer.outcome;
    return ctx.transact(() => {
      counters.calls++;
      counters.per[name] = (counters.per[name] ?? 0) + 1;
      if (!made.has(answer.key)) counters.made.push(answer.key);
      ctx.store.setMeta(TOOLS_STATE_META, JSON.stringify(counters));
      const effect = answer.effect;
      if (effect?.kind === "move") {
        const rec = ctx.store.get("records", effect.record)!;
        ctx.store.update("records", effect.record, { ...rec, status: "done", request: ctx.requestId });
      } else if (effect?.kind === "side_effect") {
        const id = ctx.store.newId("rec");
        ctx.store.insert("records", { id, object: "record", tool: name, status: "side_effect", arguments: args, request: ctx.requestId }, null);
      }
      return answer.outcome;
    });
  },
};
