// Values made up from a schema: what a simulated answer holds and what a task states. Strings respect enum,
// format, pattern and length; numbers their bounds; objects carry every property they declare. Deterministic
// under the keyed draw.
import { isObject } from "../formats/raw";
import type { Draw } from "./draw";
import { stringForPattern } from "./pattern";

const SYLLABLES = ["ka", "lo", "mi", "ne", "ru", "ta", "vo", "si", "pe", "da", "ho", "ju", "be", "fi", "go", "za"];
const ID_CHARS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

export class CannotMakeValue extends Error {}

function types(s: Record<string, unknown>): string[] {
  if (typeof s.type === "string") return [s.type];
  if (Array.isArray(s.type)) return (s.type as unknown[]).filter((t): t is string => typeof t === "string" && t !== "null");
  if (isObject(s.properties)) return ["object"];
  return ["string"];
}

const pad = (n: number, w = 2) => String(n).padStart(w, "0");

function formatted(format: string, d: Draw, clockUnix: number): string | null {
  const day = new Date((clockUnix - d.int(0, 120) * 86400) * 1000);
  const date = `${day.getUTCFullYear()}-${pad(day.getUTCMonth() + 1)}-${pad(day.getUTCDate())}`;
  switch (format) {
    case "date":
      return date;
    case "date-time":
      return `${date}T${pad(d.int(0, 23))}:${pad(d.int(0, 59))}:${pad(d.int(0, 59))}Z`;
    case "time":
      return `${pad(d.int(0, 23))}:${pad(d.int(0, 59))}:${pad(d.int(0, 59))}Z`;
    case "email":
      return `${word(d, 4, 8)}@${word(d, 4, 7)}.example`;
    case "uuid": {
      const hex = () => d.int(0, 15).toString(16);
      const part = (n: number) => Array.from({ length: n }, hex).join("");
      return `${part(8)}-${part(4)}-4${part(3)}-${"89ab"[d.int(0, 3)]}${part(3)}-${part(12)}`;
    }
    case "uri":
    case "url":
      return `https://${word(d, 4, 8)}.example/${word(d, 3, 6)}`;
    case "ipv4":
      return `10.${d.int(0, 255)}.${d.int(0, 255)}.${d.int(1, 254)}`;
    default:
      return null;
  }
}

function word(d: Draw, min: number, max: number): string {
  const target = d.int(min, max);
  let w = "";
  while (w.length < target) w += d.pick(SYLLABLES);
  return w.slice(0, target);
}

/** Cut or padded to the bounds, and never starting or ending with a space (a cut can land just after one). */
function fitLength(s: string, min: number, max: number, d: Draw): string {
  let out = [...s].slice(0, max).join("").trimEnd();
  while ([...out].length < Math.min(min, max)) out = [...(out + d.pick(SYLLABLES))].slice(0, max).join("").trimEnd();
  return out;
}

/** A string for a parameter; `name` shapes ids (`order_id` gets "K3X9QZ", a note gets words). */
export function makeString(s: Record<string, unknown>, d: Draw, name: string, clockUnix: number): string {
  if (Array.isArray(s.enum)) return String(d.pick(s.enum.filter((e) => typeof e === "string")) ?? s.enum[0]);
  if (typeof s.const === "string") return s.const;
  const min = typeof s.minLength === "number" ? s.minLength : 0;
  const max = typeof s.maxLength === "number" ? s.maxLength : Math.max(min, 12);
  if (typeof s.format === "string") {
    const f = formatted(s.format, d, clockUnix);
    if (f !== null) return f;
  }
  if (typeof s.pattern === "string") {
    const p = stringForPattern(s.pattern, d);
    if (p === null) throw new CannotMakeValue(`no value can be made up for the pattern ${s.pattern}`);
    return p;
  }
  if (/(^|_|[a-z])(id|Id|ID|code|ref|key|number)$/.test(name) || name === "id") {
    const len = Math.min(max, Math.max(min, 6));
    return Array.from({ length: len }, () => ID_CHARS[d.int(0, ID_CHARS.length - 1)]).join("");
  }
  const text = `${word(d, 3, 7)} ${word(d, 3, 7)}`;
  return fitLength(text, Math.max(min, 1), Math.max(max, 1), d);
}

function makeNumber(s: Record<string, unknown>, d: Draw, integer: boolean): number {
  let lo = typeof s.minimum === "number" ? s.minimum : typeof s.exclusiveMinimum === "number" ? s.exclusiveMinimum + (integer ? 1 : 0.01) : 1;
  let hi = typeof s.maximum === "number" ? s.maximum : typeof s.exclusiveMaximum === "number" ? s.exclusiveMaximum - (integer ? 1 : 0.01) : Math.max(lo, 1) * 500;
  if (hi < lo) [lo, hi] = [hi, lo];
  if (integer) return d.int(Math.ceil(lo), Math.floor(hi));
  const cents = d.int(Math.ceil(lo * 100), Math.floor(hi * 100));
  return cents / 100;
}

/** A value of the schema. Bounded: the import rules allow three levels of nesting. */
export function makeValue(schema: unknown, d: Draw, name: string, clockUnix: number, level = 0): unknown {
  if (level > 8) throw new CannotMakeValue("the schema nests too deeply to make up a value");
  const s = isObject(schema) ? schema : {};
  if (Array.isArray(s.enum) && s.enum.length) return d.pick(s.enum);
  if (s.const !== undefined) return s.const;
  const t = d.pick(types(s));
  switch (t) {
    case "integer":
      return makeNumber(s, d, true);
    case "number":
      return makeNumber(s, d, false);
    case "boolean":
      return d.next() < 0.5;
    case "array": {
      // One to three items unless the schema bounds them (maxItems 0 is an empty list, however minItems defaults).
      const max = typeof s.maxItems === "number" ? s.maxItems : Math.max(typeof s.minItems === "number" ? s.minItems : 1, 3);
      const min = typeof s.minItems === "number" ? s.minItems : Math.min(1, max);
      return Array.from({ length: d.int(min, Math.max(min, max)) }, (_, i) => makeValue(s.items, d.child(String(i)), name, clockUnix, level + 1));
    }
    case "object": {
      const out: Record<string, unknown> = {};
      const props = isObject(s.properties) ? s.properties : {};
      for (const [k, child] of Object.entries(props)) out[k] = makeValue(child, d.child(k), k, clockUnix, level + 1);
      return out;
    }
    case "null":
      return null;
    default:
      return makeString(s, d, name, clockUnix);
  }
}
