// The expected grammar: one line, one action (docs/tasks-file.md has the EBNF). This module only reads the
// line; resolving it against the requester's objects happens in resolve.ts, with the seed in hand.
import type { ActionKind } from "../../../rubric/schema";
import { looksLikeAmount, parseAmount } from "./money";

export const EXPECTED_ACTIONS_TEXT = "refund, credit, void, cancel, cancel at period end, plan change, none, escalate";
export const UNKNOWN_ACTION_MESSAGE = `expected must be one of ${EXPECTED_ACTIONS_TEXT}.`;

export const ID_KINDS = { ch: "charge", pi: "payment intent", in: "invoice", sub: "subscription", cus: "customer" } as const;
export type IdKind = keyof typeof ID_KINDS;

export type TargetRef =
  | { kind: "id"; id: string; prefix: IdKind; offset: number }
  | { kind: "duplicate" | "latest"; offset: number };

export interface ExpectedLine {
  action: ActionKind;
  /** Cents, or null when the line gives none (the action's natural amount). */
  amount: number | null;
  amountOffset: number;
  target: TargetRef | null;
  /** Plan changes: the plan as written after `to` (a name, a nickname or a price id). */
  plan: { name: string; offset: number } | null;
  /** The line as written, trimmed. */
  line: string;
}

export type ExpectedParse =
  | { ok: true; value: ExpectedLine }
  | { ok: false; message: string; /** Character offset in the trimmed line of the token at fault. */ offset: number };

/** Which targets each action accepts: object id prefixes and qualifiers. */
const TARGETS: Record<ActionKind, { ids: IdKind[]; qualifiers: Array<"duplicate" | "latest">; amount: "optional" | "none" }> = {
  refund: { ids: ["ch", "pi", "in", "cus"], qualifiers: ["duplicate", "latest"], amount: "optional" },
  credit: { ids: ["cus", "in"], qualifiers: ["latest"], amount: "optional" },
  void: { ids: ["in", "cus"], qualifiers: ["latest"], amount: "optional" },
  cancel: { ids: ["sub", "cus"], qualifiers: ["latest"], amount: "none" },
  cancel_at_period_end: { ids: ["sub", "cus"], qualifiers: ["latest"], amount: "none" },
  plan_change: { ids: ["sub", "cus"], qualifiers: ["latest"], amount: "none" },
  none: { ids: [], qualifiers: [], amount: "none" },
  escalate: { ids: [], qualifiers: [], amount: "none" },
};

export const ACTION_WORDS: Record<ActionKind, string> = {
  refund: "refund",
  credit: "credit",
  void: "void",
  cancel: "cancel",
  cancel_at_period_end: "cancel at period end",
  plan_change: "plan change",
  none: "none",
  escalate: "escalate",
};

interface Token {
  text: string;
  lower: string;
  offset: number;
}

function tokenize(line: string): Token[] {
  const out: Token[] = [];
  const re = /\S+/g;
  for (let m = re.exec(line); m; m = re.exec(line)) out.push({ text: m[0], lower: m[0].toLowerCase(), offset: m.index });
  return out;
}

const OBJECT_ID = /^([a-z]+)_[A-Za-z0-9]+$/;

/** "a charge (ch_...), an invoice (in_...) or latest": what an action's target may be. */
function describeTargets(action: ActionKind): string {
  const t = TARGETS[action];
  const ids = t.ids.map((p) => `${/^[aeiou]/.test(ID_KINDS[p]) ? "an" : "a"} ${ID_KINDS[p]} (${p}_...)`);
  const parts = [...ids, ...t.qualifiers.map((q) => `'on ${q}'`)];
  return parts.length > 1 ? `${parts.slice(0, -1).join(", ")} or ${parts[parts.length - 1]}` : parts.join("");
}

function fail(message: string, offset: number): ExpectedParse {
  return { ok: false, message, offset };
}

/** Reads a target token (after `on`, or a bare object id). */
function readTarget(action: ActionKind, tok: Token, afterOn: boolean): { ok: true; target: TargetRef } | { ok: false; error: ExpectedParse } {
  const word = ACTION_WORDS[action];
  const allowed = TARGETS[action];
  const id = OBJECT_ID.exec(tok.text);
  if (id) {
    const prefix = id[1];
    if (prefix in ID_KINDS && allowed.ids.includes(prefix as IdKind)) return { ok: true, target: { kind: "id", id: tok.text, prefix: prefix as IdKind, offset: tok.offset } };
    const kind = prefix in ID_KINDS ? ID_KINDS[prefix as IdKind] : null;
    const what = kind ? `${tok.text} is ${/^[aeiou]/.test(kind) ? "an" : "a"} ${kind}` : `${tok.text} is not an object ${word} can act on`;
    return { ok: false, error: fail(`${word} applies to ${describeTargets(action)}; ${what}`, tok.offset) };
  }
  if (afterOn && (tok.lower === "duplicate" || tok.lower === "latest")) {
    if ((allowed.qualifiers as string[]).includes(tok.lower)) return { ok: true, target: { kind: tok.lower, offset: tok.offset } };
    return { ok: false, error: fail(`'on ${tok.lower}' does not apply to ${word}, which takes ${describeTargets(action)}`, tok.offset) };
  }
  return { ok: false, error: fail(`unknown target '${tok.text}': ${word} takes ${describeTargets(action)}`, tok.offset) };
}

export function parseExpectedLine(input: string): ExpectedParse {
  const line = input.trim();
  if (/[\r\n]/.test(line)) return fail(`expected must be one line (it holds ${line.split(/\r?\n/).length}); write one action`, 0);
  const toks = tokenize(line);
  if (toks.length === 0) return fail(UNKNOWN_ACTION_MESSAGE, 0);
  let i = 0;
  let action: ActionKind;
  const first = toks[0].lower;
  if (first === "refund" || first === "credit" || first === "void" || first === "none" || first === "escalate") {
    action = first;
    i = 1;
  } else if (first === "cancel") {
    if (toks[1]?.lower === "at") {
      if (toks[2]?.lower !== "period" || toks[3]?.lower !== "end") return fail("write the deferred cancellation as 'cancel at period end'", toks[1].offset);
      action = "cancel_at_period_end";
      i = 4;
    } else {
      action = "cancel";
      i = 1;
    }
  } else if (first === "plan" && toks[1]?.lower === "change") {
    action = "plan_change";
    i = 2;
  } else return fail(UNKNOWN_ACTION_MESSAGE, 0);

  const word = ACTION_WORDS[action];
  const spec = TARGETS[action];
  let amount: number | null = null;
  let amountOffset = -1;
  let plan: ExpectedLine["plan"] = null;
  let target: TargetRef | null = null;

  if (action === "none" || action === "escalate") {
    if (toks[i]) return fail(`${word} takes nothing after it (found '${toks[i].text}')`, toks[i].offset);
    return { ok: true, value: { action, amount, amountOffset, target, plan, line } };
  }

  if (action === "plan_change") {
    const to = toks[i];
    if (!to || to.lower !== "to") return fail("plan change needs the plan it moves to: plan change to <plan>", to?.offset ?? line.length);
    i += 1;
    const words: Token[] = [];
    while (toks[i] && toks[i].lower !== "on" && !looksLikeAmount(toks[i].text) && !OBJECT_ID.exec(toks[i].text)?.[1]?.match(/^(sub|cus)$/)) words.push(toks[i++]);
    if (words.length === 0) return fail("plan change needs the plan it moves to: plan change to <plan>", to.offset + to.text.length);
    plan = { name: words.map((w) => w.text).join(" "), offset: words[0].offset };
  } else if (toks[i] && looksLikeAmount(toks[i].text)) {
    if (spec.amount === "none") return fail(`${word} takes no amount`, toks[i].offset);
    const a = parseAmount(toks[i].text);
    if (!a.ok) return fail(a.reason, toks[i].offset);
    amount = a.cents;
    amountOffset = toks[i].offset;
    i += 1;
  }

  const next = toks[i];
  if (next) {
    if (next.lower === "on") {
      const ref = toks[i + 1];
      if (!ref) return fail(`'on' needs a target: ${word} takes ${describeTargets(action)}`, next.offset + next.text.length);
      const t = readTarget(action, ref, true);
      if (!t.ok) return t.error;
      target = t.target;
      i += 2;
    } else if (OBJECT_ID.test(next.text)) {
      const t = readTarget(action, next, false);
      if (!t.ok) return t.error;
      target = t.target;
      i += 1;
    } else if (looksLikeAmount(next.text) && spec.amount === "none") {
      return fail(`${word} takes no amount`, next.offset);
    } else if (looksLikeAmount(next.text)) {
      return fail(amount === null ? `put the amount right after '${word}'` : `the line gives two amounts`, next.offset);
    } else return fail(`unexpected '${next.text}' (${word} takes an optional ${spec.amount === "optional" ? "amount and an optional " : ""}target: ${describeTargets(action)})`, next.offset);
  }
  const extra = toks[i];
  if (extra) {
    if (looksLikeAmount(extra.text) && spec.amount !== "none") return fail(`put the amount before the target (${word} ${extra.text} on ...)`, extra.offset);
    return fail(`unexpected '${extra.text}' after the target`, extra.offset);
  }
  // A credit has no natural amount unless it is a credit note on an invoice (the invoice's total).
  if (action === "credit" && amount === null && !(target && (target.kind === "latest" || (target.kind === "id" && target.prefix === "in")))) {
    return fail("credit needs an amount (credit $10.00) or an invoice to credit in full (credit on in_...)", toks[0].offset + toks[0].text.length);
  }
  return { ok: true, value: { action, amount, amountOffset, target, plan, line } };
}
