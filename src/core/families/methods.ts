// Difficulty methods as checks. A tier names how it is harder than its parent; each name is a claim about the
// files that a machine can test (more tools offered, more objects, a new write, a worked-out amount, a
// condition, a limit, typos, a lookalike record), and a claim its tier does not make true is an error naming the
// tier and the method. Tier 0 has bounds of its own: a few calls on a small world, and no method at all.
import type { DifficultyMethod } from "./vocabulary";
import type { GoldStep } from "./schema";

/** What one tier holds, as the method checks read it (built by the loader from the tier's files and world). */
export interface MethodTier {
  tier: number;
  instruction: string;
  gold: readonly GoldStep[];
  /** The tools the agent is offered in this tier. */
  offered: readonly string[];
  /** Each known tool's effect; a tool missing here counts as a write (the safe reading). */
  effects: Readonly<Record<string, "read" | "write">>;
  entityTypes: readonly string[];
  entities: number;
  /** A record of the world that shares an identifying value with one the gold chain writes to, if any. */
  lookalike: string | null;
}

/**
 * The account world's read tools (durable-objects/surface/account, whose definitions carry the effect; the Node
 * side cannot import the Worker's modules). Every other tool counts as a write; the null-agent test in
 * test/node/families-validate.test.ts compares this list with the tools a live account world lists.
 */
export const ACCOUNT_READ_TOOLS = [
  "get_customer", "get_charge", "get_invoice", "get_subscription", "find_customers", "list_charges", "list_invoices", "list_subscriptions", "list_prices",
  "list_tickets", "get_ticket", "list_ticket_comments", "get_user",
] as const;

/** Tier 0: a few calls, at most two of them writes, on a world smaller than a generated tier's. */
export const TIER0_MAX_CALLS = 3;
export const TIER0_MAX_WRITES = 2;
export const TIER0_MAX_OBJECTS = 199;

/** The help desk's own writes: answering the requester is part of every task, not a new kind of change. */
const DESK_WRITES = new Set(["reply_to_ticket", "add_internal_note", "set_ticket_status"]);

export function isWrite(step: GoldStep, effects: MethodTier["effects"]): boolean {
  return "tool" in step ? effects[step.tool] !== "read" : !step.rest.startsWith("GET ");
}

/** The kinds of change a chain makes: its write tools (REST writes by method and route), desk replies aside. */
export function writeKinds(t: MethodTier): Set<string> {
  const kinds = new Set<string>();
  for (const s of t.gold) {
    if (!isWrite(s, t.effects)) continue;
    if ("tool" in s) {
      if (!DESK_WRITES.has(s.tool)) kinds.add(s.tool);
    } else if (!s.rest.includes(" /api/v2/")) kinds.add(s.rest.replace(/\/[A-Za-z0-9]*_[A-Za-z0-9_]+/g, "/{id}").replace(/\?.*$/, ""));
  }
  return kinds;
}

const stepKey = (s: GoldStep) => JSON.stringify("tool" in s ? [s.tool, s.arguments] : [s.rest, s.form ?? null, s.json ?? null]);

/** The gold chain's reads, each distinct call once. */
function distinctReads(t: MethodTier): number {
  return new Set(t.gold.filter((s) => !isWrite(s, t.effects)).map(stepKey)).size;
}

/** The index of each call that repeats an earlier one exactly (same tool or route, same arguments). */
export function repeatedCalls(gold: readonly GoldStep[]): { at: number; first: number }[] {
  const seen = new Map<string, number>();
  const out: { at: number; first: number }[] = [];
  gold.forEach((s, i) => {
    const k = stepKey(s);
    const first = seen.get(k);
    if (first === undefined) seen.set(k, i);
    else out.push({ at: i, first });
  });
  return out;
}

/** Numbers the writes pass (amounts), outside free text. */
function writeNumbers(t: MethodTier): number[] {
  const out: number[] = [];
  for (const s of t.gold) {
    if (!isWrite(s, t.effects)) continue;
    const args: Record<string, unknown> = "tool" in s ? s.arguments : { ...(s.form ?? {}) };
    for (const v of Object.values(args)) if (typeof v === "number" && v !== 1) out.push(v);
  }
  return out;
}

/** The instruction states this amount: as written (24.5, 4950) or, for a count of cents, in dollars (49.50). */
export function statesAmount(text: string, n: number): boolean {
  const forms = new Set([String(n), n.toFixed(2)]);
  if (Number.isInteger(n) && n >= 100) forms.add((n / 100).toFixed(2)).add(String(n / 100));
  const plain = text.replace(/,(?=\d{3}\b)/g, "");
  return [...forms].some((f) => new RegExp(`(^|[^\\d.])${f.replace(".", "\\.")}(?![\\d]|\\.\\d)`).test(plain));
}

const CONDITIONAL = /\b(if|unless|otherwise|whichever|in case|depending on|as long as|provided that|only when)\b/gi;
const count = (text: string, re: RegExp) => (text.match(re) ?? []).length;

/** A limit the instruction states: a bound word next to an amount ("at most $450", "over $30", "limit is $25"). */
export function statedLimits(text: string): string[] {
  const re = /\b(at most|at least|no more than|not more than|more than|less than|fewer than|up to|over|under|below|above|exceed\w*|limit(?:\s+is)?|cap(?:ped)?(?:\s+at)?|maximum(?:\s+of)?|minimum(?:\s+of)?)\s+(?:(?:of|is|at|now)\s+)?\$?(\d+(?:\.\d+)?)|\$?(\d+(?:\.\d+)?)\s+or\s+(less|more|fewer)\b/gi;
  return [...text.matchAll(re)].map((m) => m[2] ?? m[3]);
}

// Contractions typed without their apostrophe, and common words a quick typist gets wrong by one letter.
const BARE_CONTRACTIONS = new Set(["dont", "doesnt", "didnt", "cant", "wont", "shouldnt", "couldnt", "wouldnt", "isnt", "wasnt", "arent", "havent", "hasnt", "thats", "whats", "youre", "theyre", "ive", "im", "id", "ill"]);
const COMMON = [
  "the", "and", "that", "this", "with", "have", "from", "should", "would", "could", "please", "thanks", "account", "order", "orders",
  "refund", "refunded", "payment", "payments", "charge", "charged", "charges", "credit", "difference", "received", "receive", "delivered",
  "because", "already", "again", "total", "their", "there", "which", "when", "what", "about", "before", "after", "since", "still",
  "different", "separate", "business", "address", "message", "customer", "invoice", "subscription", "price", "prices", "plan", "plans",
  "monthly", "billed", "cancel", "cancelled", "definitely", "tomorrow", "immediately", "necessary", "until", "believe", "know",
  "January", "February", "March", "April", "June", "July", "August", "September", "October", "November", "December",
  "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday",
].map((w) => w.toLowerCase());

/** One edit apart (an insertion, a deletion, a substitution or two neighbours swapped). */
function oneEdit(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  if (a.length === b.length) {
    const diff = [...a].map((c, i) => (c === b[i] ? -1 : i)).filter((i) => i >= 0);
    return diff.length === 1 || (diff.length === 2 && diff[1] === diff[0] + 1 && a[diff[0]] === b[diff[1]] && a[diff[1]] === b[diff[0]]);
  }
  const [s, l] = a.length < b.length ? [a, b] : [b, a];
  let i = 0;
  while (i < s.length && s[i] === l[i]) i++;
  return s.slice(i) === l.slice(i + 1);
}

/** The typos in an instruction: bare contractions, and words of five letters or more one edit from a common word (shorter ones are too often another real word: than, that). */
export function typos(text: string): string[] {
  const words = text.toLowerCase().match(/[a-z]+(?:'[a-z]+)?/g) ?? [];
  const known = new Set(COMMON);
  return words.filter((w) => BARE_CONTRACTIONS.has(w) || (w.length >= 5 && !known.has(w) && COMMON.some((c) => c.length >= 5 && oneEdit(w, c))));
}

/** Why a claimed method is not done by this tier against its parent; null when the claim holds. */
export function methodShortfall(m: DifficultyMethod, t: MethodTier, p: MethodTier): string | null {
  switch (m) {
    case "tool_proliferation": {
      const lost = p.offered.filter((x) => !t.offered.includes(x));
      const added = t.offered.filter((x) => !p.offered.includes(x));
      if (lost.length || !added.length) return `its offered tools (${t.offered.length}) must be a strict superset of tier ${p.tier}'s (${p.offered.length})${lost.length ? `; it drops ${lost.join(", ")}` : "; it adds none"}`;
      const called = new Set(t.gold.flatMap((s) => ("tool" in s ? [s.tool] : [])));
      return t.offered.some((x) => !called.has(x)) ? null : "every tool it offers is one its gold chain calls: proliferation offers tools a right answer does not need";
    }
    case "larger_db":
      return t.entities > p.entities ? null : `its world holds ${t.entities} objects, not more than tier ${p.tier}'s ${p.entities}`;
    case "schema_extension": {
      const added = t.entityTypes.filter((x) => !p.entityTypes.includes(x));
      return added.length && p.entityTypes.every((x) => t.entityTypes.includes(x)) ? null : `it holds no kind of object tier ${p.tier} lacks (it holds ${t.entityTypes.join(", ") || "none"})`;
    }
    case "multi_step_reasoning": {
      const worked = writeNumbers(t).filter((n) => !statesAmount(t.instruction, n));
      if (worked.length && distinctReads(t) >= 1) return null;
      if (distinctReads(t) > distinctReads(p) && distinctReads(t) >= 2) return null;
      return `every amount its writes pass is stated in the instruction and its gold chain makes no more distinct reads than tier ${p.tier}'s (${distinctReads(t)}): nothing is worked out from what the reads answer`;
    }
    case "cross_entity_coupling": {
      const [a, b] = [writeKinds(t), writeKinds(p)];
      return a.size >= 2 && a.size > b.size ? null : `its gold chain changes ${a.size} kind${a.size === 1 ? "" : "s"} of object (${[...a].join(", ") || "none"}), not more than tier ${p.tier}'s ${b.size}: coupling means one request changes two things that must agree`;
    }
    case "conditional_rules":
      return count(t.instruction, CONDITIONAL) > count(p.instruction, CONDITIONAL) ? null : `its instruction states no condition tier ${p.tier}'s does not (an if, unless, otherwise or whichever the agent must decide on)`;
    case "stricter_thresholds": {
      const before = new Set([...statedLimits(p.instruction), ...(p.instruction.match(/\d+(?:\.\d+)?/g) ?? [])]);
      const limits = statedLimits(t.instruction);
      return limits.some((l) => !before.has(l)) ? null : `its instruction states no new numeric limit (such as "at most $450" or "over $30")${limits.length ? `; its limits ${limits.join(", ")} are tier ${p.tier}'s` : ""}`;
    }
    case "noisy_instructions": {
      const [a, b] = [typos(t.instruction), typos(p.instruction)];
      return a.length >= 2 && a.length > b.length ? null : `its instruction has ${a.length} typo${a.length === 1 ? "" : "s"}${a.length ? ` (${a.join(", ")})` : ""}; noise means at least two (a misspelt word, a contraction without its apostrophe) more than tier ${p.tier}'s ${b.length}`;
    }
    case "ambiguity_resolution":
      return t.lookalike ? null : "the world holds no record that shares an identifying value (an email, a customer) with one the gold chain changes, so there is nothing to tell apart";
  }
}

/** Every claimed method this tier does not do, and tier 0's bounds; each message names the tier. */
export function methodProblems(t: MethodTier, p: MethodTier | null, claimed: readonly DifficultyMethod[]): string[] {
  const out: string[] = [];
  if (!p) {
    if (claimed.length) out.push(`tier 0 is the seed and names no difficulty method (it names ${claimed.join(", ")})`);
    const writes = t.gold.filter((s) => isWrite(s, t.effects)).length;
    if (t.gold.length > TIER0_MAX_CALLS) out.push(`tier 0's gold chain has ${t.gold.length} calls; the seed is solved in 1 to ${TIER0_MAX_CALLS}`);
    if (writes > TIER0_MAX_WRITES) out.push(`tier 0's gold chain makes ${writes} writes; the seed makes at most ${TIER0_MAX_WRITES}`);
    if (t.entities > TIER0_MAX_OBJECTS) out.push(`tier 0's world holds ${t.entities} objects; the seed's world is small (at most ${TIER0_MAX_OBJECTS}, below a generated tier's 200)`);
    return out;
  }
  for (const m of claimed) {
    const why = methodShortfall(m, t, p);
    if (why) out.push(`tier ${t.tier} claims ${m}, but ${why}`);
  }
  return out;
}
