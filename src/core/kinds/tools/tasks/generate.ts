// Tasks on a team's tools, made from the imported set alone (no model, no network): the forms call, read then
// call, and flow (along a link the team declared). Each task states every value its calls take, names no tool,
// and carries the world block that checks it. Its id is a pure function of the file's digest, the arm and the seed.
import { sha256Hex } from "../../../util/canonical";
import { keyedDraw, type Draw } from "../simulate/draw";
import type { ImportedTool, ToolSet } from "../toolset";
import type { ExpectedWrite, ToolCall, ToolsWorldBlock } from "../world-block";
import { answerField, argumentsFor, CannotGenerate, chainPlan, handoverParam, split, type Plan } from "./parts";
import { intentOf, statedValues } from "./request";

export { CannotGenerate };

export const GENERATOR_VERSION = "own-1";
export const FORMS = ["call", "read-then-call", "flow"] as const;
export type TaskForm = (typeof FORMS)[number];

export interface Flow {
  from: string;
  field: string;
  to: string;
  param: string;
}

export interface GenerateOptions {
  arm: TaskForm;
  count: number;
  seed: number;
  clockUnix: number;
  intents?: Record<string, string>;
  flows?: Flow[];
}

/** A call the conversation already holds before the request (the history dial), with the answer it got. */
export interface HistoryCall {
  name: string;
  arguments: Record<string, unknown>;
  result: Record<string, unknown>;
}

export interface ToolsTask {
  id: string;
  /** The task form (`call`), or the dial and level (`faults-2`) the task was made for. */
  arm: string;
  /** On a dial's arm: which dial, at which level (shown as `label`). */
  dial?: { name: string; level: number; label: string };
  /** Seeded earlier calls (history dial), and their size in tokens. */
  history?: { calls: HistoryCall[]; tokens: number };
  seed: number;
  index: number;
  request: string;
  /** The calls that solve it, in order. */
  expected: { calls: ToolCall[]; store: Array<{ record: string; tool: string; status: "done" }> };
  /** Whether the request's wording came from the team's intent lines (else from descriptions: partly a word match). */
  intents: boolean;
  world: ToolsWorldBlock;
}

export async function generateTasks(set: ToolSet, opts: GenerateOptions): Promise<ToolsTask[]> {
  if (set.setRefusal) throw new CannotGenerate(`the tool set is refused: ${set.setRefusal}`);
  const targets = set.tools.filter((t) => t.target);
  const reads = set.tools.filter((t) => t.effect === "read" && t.checkable.length > 0);
  const intents = opts.intents ?? {};
  const allIntents = set.tools.every((t) => intents[t.name] !== undefined || (t.title !== undefined && intents[t.title] !== undefined));
  const definitions = set.tools.map(({ checkable: _c, target: _t, ...def }) => def);
  const tasks: ToolsTask[] = [];
  for (let index = 0; index < opts.count; index++) {
    const id = `t_${(await sha256Hex(`${set.sha256}:${opts.arm}:${opts.seed}:${index}`)).slice(0, 16)}`;
    const d = keyedDraw(`${set.sha256}:${opts.arm}:${opts.seed}:${index}`);
    const rec = (n: number) => `rec_${id.slice(2, 14)}${n}`;
    const plan = planFor(opts.arm, { set, targets, reads, d, index, clockUnix: opts.clockUnix, intents, flows: opts.flows ?? [], rec });
    tasks.push(taskOf({ set, id, arm: opts.arm, seed: opts.seed, index, plan, intents: allIntents, definitions, faults: [] }));
  }
  return tasks;
}

/** A task from its plan: what the agent is asked, the calls and store that solve it, and the world that checks it. */
export function taskOf(t: {
  set: ToolSet;
  id: string;
  arm: string;
  seed: number;
  index: number;
  plan: Plan;
  intents: boolean;
  definitions: ToolsWorldBlock["definitions"];
  faults: ToolsWorldBlock["task"]["faults"];
}): ToolsTask {
  const { set, id, plan } = t;
  return {
    id,
    arm: t.arm,
    seed: t.seed,
    index: t.index,
    request: plan.request,
    expected: { calls: plan.calls, store: plan.writes.map((w) => ({ record: w.record, tool: w.name, status: "done" as const })) },
    intents: t.intents,
    world: {
      set: { name: set.name, format: set.format, sha256: set.sha256 },
      draw_seed: t.seed,
      definitions: t.definitions,
      task: { id, writes: plan.writes, deliveries: plan.deliveries, prerequisites: plan.prerequisites, faults: t.faults },
      max_calls: 32,
    },
  };
}

interface PlanInput {
  set: ToolSet;
  targets: ImportedTool[];
  reads: ImportedTool[];
  d: Draw;
  index: number;
  clockUnix: number;
  intents: Record<string, string>;
  flows: Flow[];
  rec: (n: number) => string;
}

function planFor(arm: TaskForm, p: PlanInput): Plan {
  if (arm === "call") return callPlan(p);
  if (arm === "read-then-call") return readThenCallPlan(p);
  return flowPlan(p);
}

function callPlan(p: PlanInput): Plan {
  for (let attempt = 0; attempt < p.targets.length; attempt++) {
    const tool = p.targets[(p.index + attempt) % p.targets.length];
    const args = argumentsFor(tool, p.d.child(`args:${tool.name}`), p.clockUnix);
    if (!args) continue;
    const write: ExpectedWrite = { record: p.rec(1), name: tool.name, ...split(tool, args) };
    const values = statedValues(args);
    return { request: `${intentOf(tool, p.intents).text}${values ? `: ${values}` : ""}.`, calls: [{ name: tool.name, arguments: args }], writes: [write], deliveries: [], prerequisites: [] };
  }
  throw new CannotGenerate("no target tool's arguments can be made up from its schema");
}

/** Every (read, write, parameter, answer field) read then call can be made of: the one rule generate, init and
 * doctor all use, so a form init writes is one generate makes. */
export function readThenCallPairs(set: ToolSet): Array<[ImportedTool, ImportedTool, string, string]> {
  const pairs: Array<[ImportedTool, ImportedTool, string, string]> = [];
  for (const w of set.tools.filter((t) => t.target)) {
    const param = handoverParam(w);
    if (!param) continue;
    for (const r of set.tools.filter((t) => t.effect === "read" && t.checkable.length > 0)) {
      const field = answerField(r, param);
      if (field) pairs.push([r, w, param, field]);
    }
  }
  return pairs;
}

export const READ_THEN_CALL_NEEDS = "read then call needs a read tool with a checkable argument whose answer has a plain string field, and a target with a checkable string argument";

function readThenCallPlan(p: PlanInput): Plan {
  const pairs = readThenCallPairs(p.set);
  if (!pairs.length) throw new CannotGenerate(READ_THEN_CALL_NEEDS);
  const [read, write, param, field] = pairs[p.index % pairs.length];
  return handover(p, read, write, field, param, false);
}

function flowPlan(p: PlanInput): Plan {
  if (!p.flows.length) throw new CannotGenerate("the flow form needs a declared flow (--own-flow FROM.FIELD:TO.PARAM, or flows: in worlds/tools.yaml)");
  const flow = p.flows[p.index % p.flows.length];
  const from = p.set.tools.find((t) => t.name === flow.from || t.title === flow.from);
  const to = p.set.tools.find((t) => t.name === flow.to || t.title === flow.to);
  if (!from || !to) throw new CannotGenerate(`the flow ${flow.from}.${flow.field}:${flow.to}.${flow.param} names a tool the set does not hold (or holds refused)`);
  return handover(p, from, to, flow.field, flow.param, true);
}

/** The first call's answer carries, at `field`, the value the second call must take as `param`. */
function handover(p: PlanInput, first: ImportedTool, second: ImportedTool, field: string, param: string, declared: boolean): Plan {
  return chainPlan([{ tool: first }, { tool: second, link: { field, param } }], { d: p.d, clockUnix: p.clockUnix, intents: p.intents, rec: p.rec, declared });
}
