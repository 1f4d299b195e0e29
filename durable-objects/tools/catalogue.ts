// The tools kind's catalogue: the block the world was seeded with, answered by the simulator's rules. What a call
// did is applied here: an expected write moves its record to done, any other accepted write is recorded as a
// side effect (both in the change log, so the diff shows them); the per-episode counters live in meta.
import { toolsWorldBlock, type ToolsWorldBlock } from "../../src/core/kinds/tools/world-block";
import { answerCall, type EpisodeState } from "../../src/core/kinds/tools/simulate/answer";
import { failureBody } from "../../src/core/kinds/tools/simulate/failure";
import type { ToolCatalogue, ToolCallContext, ToolDefinition, ToolOutcome } from "../surface/catalogue";
import { BoundedLru } from "../../src/core/util/lru";
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

/**
 * Counters live in memory per world and reach storage only when they decide something later: with a write, a
 * prerequisite read or a fault. A plain read stays a read: no durable commit (a commit per call halved the
 * simulator's rate against the account twin's cached reads, bench/tools-call.mjs). If the isolate is recycled
 * mid-episode, counts of plain reads since the last write are lost; they only bound the call limit.
 */
const live = new Map<string, Counters>();
const MAX_LIVE = 4096;

function countersOf(store: Store): Counters {
  const id = store.meta("world_id") ?? "";
  const known = live.get(id);
  if (known) return known;
  const text = store.meta(TOOLS_STATE_META);
  const c = text ? (JSON.parse(text) as Counters) : { calls: 0, per: {}, made: [] };
  c.per = Object.assign(Object.create(null) as Record<string, number>, c.per);
  if (live.size >= MAX_LIVE) live.delete(live.keys().next().value as string);
  live.set(id, c);
  return c;
}

// Answers are pure functions of the block and the call; k repetitions of a task ask the same calls again.
const answers = new BoundedLru<string, Record<string, unknown>>(2048);
const memo = (key: string, make: () => Record<string, unknown>) => {
  const hit = answers.get(key);
  if (hit) return hit;
  const made = make();
  answers.set(key, made);
  return made;
};

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

  failureBody(store, name, error) {
    const block = blockOf(store);
    return block ? failureBody(block, name, error, store.now()) : { error };
  },

  reuse: {
    // A read tool's answer is drawn from the block and the call alone, unless a fault is planned for it or a
    // later write waits on it (a prerequisite read is remembered, and that write to storage must happen).
    stable(store, name) {
      const block = blockOf(store);
      const tool = block?.definitions.find((t) => t.name === name);
      return !!block && tool?.effect === "read" && !block.task.faults.some((f) => f.name === name) && !block.task.prerequisites.some((p) => p.read.name === name);
    },
    recount(store, name) {
      const block = blockOf(store);
      const counters = countersOf(store);
      if (!block || counters.calls >= block.max_calls) return false;
      counters.calls++;
      counters.per[name] = (counters.per[name] ?? 0) + 1;
      return true;
    },
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
    const answer = answerCall(block, { name, arguments: args }, state, ctx.store.now(), memo);
    if (!answer.counted) return answer.outcome;
    counters.calls++;
    counters.per[name] = (counters.per[name] ?? 0) + 1;
    const matters = answer.effect !== null || !answer.outcome.ok || block.task.prerequisites.some((p) => p.read.name === name) || block.task.faults.some((f) => f.name === name);
    if (!matters) return answer.outcome;
    if (!made.has(answer.key)) counters.made.push(answer.key);
    return ctx.transact(() => {
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
