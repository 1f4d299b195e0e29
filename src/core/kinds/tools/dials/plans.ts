// What each dial does to one task. Every builder takes the same base draw for a task index at every level, so the
// tasks of two levels differ in the dial's own part alone: the same target and values, with lookalikes added, or
// faults planned, or earlier calls seeded, or the block cut, or fewer values stated, or a value split, or a chain
// lengthened, or two chains joined. Pure and synchronous.
import { canonicalJson } from "../../../util/canonical";
import { resultOf } from "../simulate/answer";
import type { Draw } from "../simulate/draw";
import { argumentsFor, CannotGenerate, chainPlan, linkValue, split, type Plan } from "../tasks/parts";
import { intentOf, lowerFirst, statedValues } from "../tasks/request";
import type { Flow, HistoryCall } from "../tasks/generate";
import type { ImportedTool, ToolSet } from "../toolset";
import type { ToolsWorldBlock } from "../world-block";
import { answerField, handoverParam } from "../tasks/parts";
import { argumentsTargets, DIAL_LEVELS, spreadPairs, shapeChains, type DialName } from "./catalog";
import { declaredChains } from "./chains";
import { tokensOf } from "./tokens";

type Definition = ToolsWorldBlock["definitions"][number];

export interface DialContext {
  set: ToolSet;
  index: number;
  /** The task's base draw: the same at every level of the dial. */
  d: Draw;
  clockUnix: number;
  intents: Record<string, string>;
  flows: readonly Flow[];
  rec: (n: number) => string;
  /** For the history dial's answers: the block's identity (digest and draw seed). */
  drawSeed: number;
}

export interface DialParts {
  plan: Plan;
  definitions: Definition[];
  faults: ToolsWorldBlock["task"]["faults"];
  history?: { calls: HistoryCall[]; tokens: number };
}

export const definitionOf = ({ checkable: _c, target: _t, ...def }: ImportedTool): Definition => def;

/** One write, every value stated: the base of the dials that change what surrounds a single call. */
function baseCall(c: DialContext, pool: ImportedTool[] = c.set.tools.filter((t) => t.target)): { tool: ImportedTool; args: Record<string, unknown> } {
  for (let attempt = 0; attempt < pool.length; attempt++) {
    const tool = pool[(c.index + attempt) % pool.length];
    const args = argumentsFor(tool, c.d.child(`args:0:${tool.name}`), c.clockUnix);
    if (args) return { tool, args };
  }
  throw new CannotGenerate("no target tool's arguments can be made up from its schema");
}

function callPlanOf(c: DialContext, tool: ImportedTool, args: Record<string, unknown>, name = tool.name, ignored: string[] = [], suffix = ""): Plan {
  const values = statedValues(args);
  return {
    request: `${intentOf(tool, c.intents).text}${values ? `: ${values}` : ""}.${suffix}`,
    calls: [{ name, arguments: args }],
    writes: [{ record: c.rec(1), name, ...split(tool, args, ignored) }],
    deliveries: [],
    prerequisites: [],
  };
}

const whole = (c: DialContext) => c.set.tools.map(definitionOf);

/** Distinct four-digit account numbers, the first the target's: a level uses the first 1 + level. */
function accounts(d: Draw, n: number): number[] {
  const out: number[] = [];
  while (out.length < n) {
    const a = d.int(1000, 9999);
    if (!out.includes(a)) out.push(a);
  }
  return out;
}

function similarity(c: DialContext, level: number): DialParts {
  const { tool, args } = baseCall(c);
  const [own, ...others] = accounts(c.d.child("similarity"), 1 + Math.max(...DIAL_LEVELS.similarity));
  const scoped = (n: number): Definition => ({ ...definitionOf(tool), name: `${tool.name.slice(0, 59)}_${n}`, description: `${tool.description.trim()} (account ${n})` });
  const group = [own, ...others.slice(0, level)].sort((a, b) => a - b).map(scoped);
  const definitions = c.set.tools.flatMap((t) => (t === tool ? group : [definitionOf(t)]));
  return { plan: callPlanOf(c, tool, args, scoped(own).name, [], ` This is for account ${own}.`), definitions, faults: [] };
}

function faults(c: DialContext, level: number): DialParts {
  const { tool, args } = baseCall(c);
  const plan = callPlanOf(c, tool, args);
  const calls = plan.calls;
  const planned = Array.from({ length: level }, (_, k) => ({ name: calls[k % calls.length].name, nth: Math.floor(k / calls.length) + 1 }));
  return { plan, definitions: whole(c), faults: planned };
}

/** Calls at most in a seeded history: bounds the work when a read's answers are tiny. */
const MAX_HISTORY_CALLS = 400;

function history(c: DialContext, level: number): DialParts {
  const { tool, args } = baseCall(c);
  const definitions = whole(c);
  const reads = c.set.tools.filter((t) => t.effect === "read");
  const block = { set: { name: c.set.name, format: c.set.format, sha256: c.set.sha256 }, draw_seed: c.drawSeed, definitions, task: { id: "history", writes: [], deliveries: [], prerequisites: [], faults: [] }, max_calls: 32 } as ToolsWorldBlock;
  const calls: HistoryCall[] = [];
  let tokens = 0;
  for (let i = 0; tokens < level; i++) {
    if (i >= MAX_HISTORY_CALLS) throw new CannotGenerate(`the read tools' answers are too small to seed ${level} tokens of history in ${MAX_HISTORY_CALLS} calls`);
    const read = reads[(c.index + i) % reads.length];
    const a = argumentsFor(read, c.d.child(`history:${i}`), c.clockUnix);
    if (!a) continue;
    const result = resultOf(block, { name: read.name, arguments: a }, c.clockUnix);
    calls.push({ name: read.name, arguments: a, result });
    tokens += historyTokens({ name: read.name, arguments: a, result });
  }
  return { plan: callPlanOf(c, tool, args), definitions, faults: [], history: { calls, tokens } };
}

/** What one seeded call costs in the conversation: the call as the model wrote it and the answer it read. */
export function historyTokens(h: HistoryCall): number {
  return tokensOf(JSON.stringify({ name: h.name, arguments: h.arguments })) + tokensOf(canonicalJson(h.result));
}

function block(c: DialContext, level: number): DialParts {
  const { tool, args } = baseCall(c);
  const others = c.set.tools.filter((t) => t !== tool);
  const d = c.d.child("block");
  // One keyed shuffle for every level, so a smaller block is a subset of a larger one.
  for (let i = others.length - 1; i > 0; i--) {
    const j = d.int(0, i);
    [others[i], others[j]] = [others[j], others[i]];
  }
  const kept = new Set([tool, ...others.slice(0, level - 1)]);
  return { plan: callPlanOf(c, tool, args), definitions: c.set.tools.filter((t) => kept.has(t)).map(definitionOf), faults: [] };
}

function argumentsDial(c: DialContext, level: number): DialParts {
  const { tools } = argumentsTargets(c.set);
  const { tool, args } = baseCall(c, tools);
  const required = new Set(tool.inputSchema.required ?? []);
  const order = [...tool.checkable.filter((k) => required.has(k)), ...tool.checkable.filter((k) => !required.has(k))];
  const stated = new Set(order.filter((k) => Object.hasOwn(args, k)).slice(0, level));
  for (const k of Object.keys(args)) if (required.has(k)) stated.add(k);
  const kept = Object.fromEntries(Object.entries(args).filter(([k]) => stated.has(k)));
  const ignored = Object.keys(tool.inputSchema.properties ?? {}).filter((k) => !stated.has(k));
  return { plan: callPlanOf(c, tool, kept, tool.name, ignored), definitions: whole(c), faults: [] };
}

/** A string cut into n pieces as even as possible, in order. */
export function cut(value: string, n: number): string[] {
  const chars = [...value];
  const out: string[] = [];
  let at = 0;
  for (let i = 0; i < n; i++) {
    const len = Math.floor((chars.length - at) / (n - i));
    out.push(chars.slice(at, at + len).join(""));
    at += len;
  }
  return out;
}

function spread(c: DialContext, level: number): DialParts {
  const pairs = spreadPairs(c.set);
  const { read, write, param, field } = pairs[c.index % pairs.length];
  const value = linkValue(write, param, c.d, c.clockUnix, 0);
  if (typeof value !== "string" || [...value].length < Math.max(...DIAL_LEVELS.spread))
    throw new CannotGenerate(`${write.name}.${param} takes values too short to split across ${Math.max(...DIAL_LEVELS.spread)} reads`);
  const reads: Plan["calls"] = [];
  for (let j = 0; j < level; j++) {
    for (let attempt = 0; ; attempt++) {
      if (attempt >= 8) throw new CannotGenerate(`${read.name} cannot be called ${level} different ways`);
      const a = argumentsFor(read, c.d.child(`spread:${j}:${attempt}`), c.clockUnix);
      if (a && !reads.some((r) => canonicalJson(r.arguments) === canonicalJson(a))) {
        reads.push({ name: read.name, arguments: a });
        break;
      }
    }
  }
  const wargs = argumentsFor(write, c.d.child(`args:0:${write.name}`), c.clockUnix, { [param]: value });
  if (!wargs) throw new CannotGenerate(`the arguments of ${write.name} cannot be made up from its schema`);
  const pieces = cut(value, level);
  const rec = c.rec(1);
  const intent = intentOf(read, c.intents).text;
  const asked = reads.map((r, j) => (j === 0 ? `${intent}: ${statedValues(r.arguments)}.` : `Do the same with ${statedValues(r.arguments)}.`));
  const rest = statedValues(wargs, [param]);
  const how = level === 1 ? `the ${field} it reports` : `the ${field} values those ${level} answers report, joined in the order you asked for them,`;
  const request = `${asked.join(" ")} Then ${lowerFirst(intentOf(write, c.intents).text)}, using ${how} as ${param}${rest ? `, with ${rest}` : ""}.`;
  const plan: Plan = {
    request,
    calls: [...reads, { name: write.name, arguments: wargs }],
    writes: [{ record: rec, name: write.name, ...split(write, wargs) }],
    deliveries: reads.map((r, j) => ({ call: r, path: field, value: pieces[j] })),
    prerequisites: reads.map((r) => ({ record: rec, read: r })),
  };
  return { plan, definitions: whole(c), faults: [] };
}

function depth(c: DialContext, level: number): DialParts {
  const chains = declaredChains(c.set, c.flows);
  const longest = chains.filter((x) => x.length === chains[0].length);
  const chain = longest[c.index % longest.length];
  const plan = chainPlan(chain.slice(chain.length - level), { d: c.d, clockUnix: c.clockUnix, intents: c.intents, rec: c.rec, declared: true });
  return { plan, definitions: whole(c), faults: [] };
}

function shape(c: DialContext, level: number): DialParts {
  const chains = shapeChains(c.set, c.flows);
  const chain = chains[c.index % chains.length];
  const o = { clockUnix: c.clockUnix, intents: c.intents, rec: c.rec, declared: true };
  const a = chainPlan(chain, { ...o, d: c.d.child("first") });
  const first = chain[0].tool;
  const param = handoverParam(first)!;
  const field = answerField(chain[chain.length - 1].tool, param)!;
  const value = linkValue(first, param, c.d.child("second"), c.clockUnix, chain.length);
  const inSequence = level === 1;
  const b = chainPlan(chain, { ...o, d: c.d.child("second"), firstFixed: { [param]: value }, firstRecord: a.writes.length + 1, ...(inSequence ? { firstVia: `the ${field} that answer gives you` } : {}) });
  const last = a.calls[a.calls.length - 1];
  const plan: Plan = {
    request: inSequence ? `${a.request} ${b.request}` : `${a.request} Separately, also: ${lowerFirst(b.request)}`,
    calls: [...a.calls, ...b.calls],
    writes: [...a.writes, ...b.writes],
    deliveries: [...a.deliveries, ...b.deliveries, ...(inSequence ? [{ call: last, path: field, value }] : [])],
    prerequisites: [...a.prerequisites, ...b.prerequisites, ...(inSequence && first.effect !== "read" ? [{ record: b.writes[0].record, read: last }] : [])],
  };
  return { plan, definitions: whole(c), faults: [] };
}

export const DIAL_PLANS: Record<DialName, (c: DialContext, level: number) => DialParts> = {
  similarity,
  faults,
  history,
  block,
  arguments: argumentsDial,
  spread,
  depth,
  shape,
};
