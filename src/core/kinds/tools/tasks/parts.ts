// The pieces every task plan is made of: arguments drawn from a tool's schema, the split into checked and merely
// stated values, the parameter and answer field a value is handed over through, and a chain of calls where each
// answer carries the value the next call takes. Shared by the task forms and the dials.
import { dict } from "../../../util/safe-tree";
import { isObject } from "../formats/raw";
import { isCheckable } from "../rules";
import type { Draw } from "../simulate/draw";
import { CannotMakeValue, makeValue } from "../simulate/value";
import type { ImportedTool } from "../toolset";
import type { Delivery, ExpectedWrite, ToolCall, ToolsWorldBlock } from "../world-block";
import { intentOf, lowerFirst, statedValues } from "./request";

export class CannotGenerate extends Error {}

export interface Plan {
  request: string;
  calls: ToolCall[];
  writes: ExpectedWrite[];
  deliveries: Delivery[];
  prerequisites: ToolsWorldBlock["task"]["prerequisites"];
}

const propsOf = (tool: ImportedTool): Record<string, unknown> => (isObject(tool.inputSchema.properties) ? tool.inputSchema.properties : {});

/** Every parameter the schema lets us make up, `fixed` ones as given; null when a required one cannot be made. */
export function argumentsFor(tool: ImportedTool, d: Draw, clockUnix: number, fixed: Record<string, unknown> = {}): Record<string, unknown> | null {
  const required = new Set(tool.inputSchema.required ?? []);
  const out: Record<string, unknown> = dict();
  for (const [k, s] of Object.entries(propsOf(tool))) {
    if (Object.hasOwn(fixed, k)) {
      out[k] = fixed[k];
      continue;
    }
    try {
      out[k] = makeValue(s, d.child(k), k, clockUnix);
    } catch (e) {
      if (!(e instanceof CannotMakeValue)) throw e;
      if (required.has(k)) return null;
    }
  }
  return { ...out };
}

/** Checked arguments compare exactly; free text (and anything in `ignored`) is stated, or not, and never compared. */
export function split(tool: ImportedTool, args: Record<string, unknown>, ignored: readonly string[] = []): Pick<ExpectedWrite, "arguments" | "unchecked"> {
  const props = propsOf(tool);
  const checked: Record<string, unknown> = {};
  const unchecked: string[] = [];
  for (const [k, v] of Object.entries(args)) {
    if (isCheckable(props[k])) checked[k] = v;
    else unchecked.push(k);
  }
  for (const k of ignored) if (!unchecked.includes(k)) unchecked.push(k);
  return { arguments: checked, unchecked };
}

/** A string parameter of the target that a read can hand over (checkable, so the handover is checked). */
export function handoverParam(tool: ImportedTool): string | null {
  const props = propsOf(tool);
  const p = tool.checkable.find((k) => isObject(props[k]) && (props[k] as Record<string, unknown>).type === "string" && (props[k] as Record<string, unknown>).enum === undefined);
  return p ?? null;
}

/**
 * The answer field that carries the handed-over value: a plain string field of the read's output, else one of
 * the items of a list it answers (`data[].id`: the record is found inside the list), else `id` with no schema.
 */
export function answerField(read: ImportedTool, param: string): string | null {
  if (!read.outputSchema) return "id";
  const top = plainField(read.outputSchema, param);
  if (top) return top;
  const props = isObject(read.outputSchema.properties) ? read.outputSchema.properties : {};
  for (const [k, s] of Object.entries(props)) {
    const items = isObject(s) && s.type === "array" && isObject(s.items) && s.maxItems !== 0 ? s.items : null;
    const inner = items ? plainField(items, param) : null;
    if (inner) return `${k}[].${inner}`;
  }
  return null;
}

function plainField(schema: Record<string, unknown>, param: string): string | null {
  const props = isObject(schema.properties) ? schema.properties : {};
  const plain = Object.keys(props).filter((k) => {
    const s = props[k];
    return isObject(s) && s.type === "string" && s.enum === undefined && s.format === undefined && s.pattern === undefined && s.const === undefined;
  });
  return plain.find((k) => k === param) ?? plain.find((k) => /(^|_)id$/i.test(k)) ?? plain[0] ?? null;
}

/** One link of a chain: the answer of the call before, at `field`, is what this call takes as `param`. */
export interface Link {
  field: string;
  param: string;
}

export interface ChainStep {
  tool: ImportedTool;
  /** How the step's value arrives from the step before (absent on the first step). */
  link?: Link;
}

export interface ChainOptions {
  d: Draw;
  clockUnix: number;
  intents: Record<string, string>;
  /** The record id of the nth write (1-based) the chain expects. */
  rec: (n: number) => string;
  /** Whether the links were declared by the team (the request then says "it gives you"). */
  declared: boolean;
  /** The first record number to use (a second chain in one task continues the count). */
  firstRecord?: number;
  /** Values fixed on the first step (a handover from outside the chain), and how the request says they arrive. */
  firstFixed?: Record<string, unknown>;
  firstVia?: string;
}

/** A value a step hands the next, drawn by the step's distance from the chain's end, so a shorter chain keeps it. */
export function linkValue(to: ImportedTool, param: string, d: Draw, clockUnix: number, fromEnd: number): string | number | boolean {
  const value = makeValue(propsOf(to)[param] ?? { type: "string" }, d.child(`link:${fromEnd}:${param}`), param, clockUnix);
  if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") throw new CannotGenerate(`${to.name}.${param} is not a scalar a read can hand over`);
  return value;
}

/**
 * The calls of a chain, in order: each step's arguments drawn by its distance from the end (so depth 2 is depth 1
 * with a step before it, and nothing else changes), each link's value placed in the answer of the step before.
 */
export function chainPlan(steps: ChainStep[], o: ChainOptions): Plan & { sentences: string[] } {
  const calls: ToolCall[] = [];
  const writes: ExpectedWrite[] = [];
  const deliveries: Delivery[] = [];
  const prerequisites: Plan["prerequisites"] = [];
  const sentences: string[] = [];
  let record = o.firstRecord ?? 1;
  let previous: ToolCall | null = null;
  for (let i = 0; i < steps.length; i++) {
    const { tool, link } = steps[i];
    const fromEnd = steps.length - 1 - i;
    const fixed: Record<string, unknown> = i === 0 ? { ...(o.firstFixed ?? {}) } : {};
    let value: string | number | boolean | null = null;
    // Drawn the same way whether or not a step before hands it over: a chain cut shorter states the same value.
    if (link) {
      value = linkValue(tool, link.param, o.d, o.clockUnix, fromEnd);
      fixed[link.param] = value;
    }
    const args = argumentsFor(tool, o.d.child(`args:${fromEnd}:${tool.name}`), o.clockUnix, fixed);
    if (!args) throw new CannotGenerate(`the arguments of ${tool.name} cannot be made up from its schema`);
    const call = { name: tool.name, arguments: args };
    if (tool.effect !== "read") {
      const rec = o.rec(record++);
      writes.push({ record: rec, name: tool.name, ...split(tool, args) });
      if (previous) prerequisites.push({ record: rec, read: previous });
    }
    if (link && previous && value !== null) deliveries.push({ call: previous, path: link.field, value });
    const intent = intentOf(tool, o.intents).text;
    if (!link || !previous) {
      const handed = Object.keys(o.firstFixed ?? {});
      const values = statedValues(args, o.firstVia ? handed : []);
      if (o.firstVia && handed.length) sentences.push(`Then ${lowerFirst(intent)}, using ${o.firstVia} as ${handed.join(" and ")}${values ? `, with ${values}` : ""}.`);
      else sentences.push(`${intent}${values ? `: ${values}` : ""}.`);
    } else {
      const how = o.declared ? `the ${link.field.replace(/\[\]/g, "")} it gives you` : `the ${link.field.replace(/\[\]/g, "")} it reports`;
      const rest = statedValues(args, [link.param]);
      sentences.push(`Then ${lowerFirst(intent)}, using ${how} as ${link.param}${rest ? `, with ${rest}` : ""}.`);
    }
    calls.push(call);
    previous = call;
  }
  return { request: sentences.join(" "), sentences, calls, writes, deliveries, prerequisites };
}
