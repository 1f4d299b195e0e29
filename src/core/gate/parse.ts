// `--gate` expressions: the bar a crash test must clear, on the bound of its interval rather than the point
// estimate. Two metrics: `pass^K>=X` (X a probability or a percentage) and `dollars_wrong<=X` (X in the run's
// currency, per run). Parsed with zod so a bad expression names the flag and says what would have been right.
import { z } from "zod";

export type Gate =
  | { metric: "pass^k"; k: number; op: ">=" | ">"; threshold: number; text: string }
  | { metric: "dollars_wrong"; op: "<=" | "<"; threshold_major: number; text: string };

const PASS = /^pass\^(\d+)\s*(>=|>)\s*(\d+(?:\.\d+)?)(%?)$/;
const DOLLARS = /^dollars_wrong\s*(<=|<)\s*\$?(\d+(?:\.\d+)?)$/;

export const GATE_HELP = "pass^K>=X (X a probability like 0.8 or a percentage like 80%) or dollars_wrong<=X (X per run, in the run's currency)";

export const gateSchema = z.string().transform((raw, ctx): Gate => {
  const text = raw.trim().replace(/\s+/g, "");
  const p = PASS.exec(text);
  if (p) {
    const k = Number(p[1]);
    const value = Number(p[3]) / (p[4] ? 100 : 1);
    if (k < 1 || k > 100) ctx.addIssue({ code: "custom", message: `'${raw}': K must be between 1 and 100 (the runs passk can make)` });
    else if (value > 1) ctx.addIssue({ code: "custom", message: `'${raw}': a pass^k threshold is a probability, at most 1 (or 100%)` });
    else return { metric: "pass^k", k, op: p[2] as ">=" | ">", threshold: value, text: `pass^${k}${p[2]}${p[3]}${p[4]}` };
    return z.NEVER;
  }
  const d = DOLLARS.exec(text);
  if (d) return { metric: "dollars_wrong", op: d[1] as "<=" | "<", threshold_major: Number(d[2]), text: `dollars_wrong${d[1]}${d[2]}` };
  ctx.addIssue({ code: "custom", message: `'${raw}' is not a gate: write ${GATE_HELP}, e.g. 'pass^3>=0.8' or 'dollars_wrong<=100'` });
  return z.NEVER;
});

/** Gates from the repeated flag; throws the first problem as a message that reads after "--gate ". */
export function parseGates(values: readonly string[]): Gate[] {
  return values.map((v) => {
    const r = gateSchema.safeParse(v);
    if (!r.success) throw new GateSyntaxError(r.error.issues[0].message);
    return r.data;
  });
}

export class GateSyntaxError extends Error {}
