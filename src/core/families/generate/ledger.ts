// The `tool-ledger` generator for tools-world tiers: the tier's own looked-up records (the answers its block gives
// one read tool for given arguments) inside a ledger of generated ones the same read answers for other keys, so
// the agent has to look records up instead of being handed them. Each generated key has the shape of the story's
// (letters for letters, digits for digits) and never repeats one; each value is of its field's kind, strings
// drawn from the story's own values. Pure and deterministic: same inputs, same bytes.
import { canonicalJson } from "../../util/canonical";
import { Stream } from "./prng";

type Obj = Record<string, unknown>;
type Scalar = string | number | boolean;
interface Delivery {
  call: { name: string; arguments: Obj };
  path: string;
  value: Scalar;
}

export interface LedgerOptions {
  prng_seed: number;
  /** Generated records the read answers. */
  records: number;
}

export class LedgerError extends Error {}

const LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ";

/** The tier block with its ledger: the story's deliveries first, then the generated ones. */
export function generateLedger(base: Obj, o: LedgerOptions): Obj {
  const story = (Array.isArray(base.deliveries) ? base.deliveries : []) as Delivery[];
  const first = story[0];
  if (!first) throw new LedgerError("the tool-ledger generator needs a story: at least one delivery in seed.json (a read's answer for one record)");
  const keyArg = Object.entries(first.call.arguments).find(([, v]) => typeof v === "string")?.[0];
  if (!keyArg) throw new LedgerError(`the tool-ledger generator varies a string argument of the first delivery's call (${first.call.name}), and it has none`);
  const template = first.call.arguments[keyArg] as string;
  const sameTool = story.filter((d) => d.call.name === first.call.name);
  const paths = [...new Set(sameTool.filter((d) => d.call.arguments[keyArg] === template).map((d) => d.path))];
  const used = new Set(sameTool.map((d) => String(d.call.arguments[keyArg])));
  const keys = new Stream(o.prng_seed, "ledger.keys");
  const values = new Stream(o.prng_seed, "ledger.values");
  const out: Delivery[] = [];
  for (let i = 0; i < o.records; i++) {
    let key = template;
    for (let tries = 0; used.has(key); tries++) {
      if (tries > 1000) throw new LedgerError(`the key ${template} has too few shapes for ${o.records} generated records`);
      key = [...template].map((c) => (/[A-Z]/.test(c) ? keys.pick([...LETTERS]) : /[a-z]/.test(c) ? keys.pick([...LETTERS]).toLowerCase() : /\d/.test(c) ? String(keys.int(0, 9)) : c)).join("");
    }
    used.add(key);
    const call = { name: first.call.name, arguments: { ...first.call.arguments, [keyArg]: key } };
    for (const path of paths) out.push({ call, path, value: valueLike(sameTool.filter((d) => d.path === path).map((d) => d.value), values) });
  }
  return JSON.parse(canonicalJson({ ...base, deliveries: [...story, ...out] })) as Obj;
}

function valueLike(seen: Scalar[], s: Stream): Scalar {
  const v = seen[0];
  if (typeof v === "number") {
    const max = Math.max(...seen.filter((x): x is number => typeof x === "number"), 1);
    const n = s.int(100, Math.round(max * 300)) / 100;
    return Number.isInteger(v) ? Math.round(n) : n;
  }
  if (typeof v === "boolean") return s.chance(0.5);
  return s.pick(seen as string[]);
}
