// The claims detector: which reply sentences tell the customer an action was taken. Only completed actions count
// ("I've refunded $24.30", "your subscription has been cancelled"); negated, future, conditional, questioning and
// historical forms ("we can't refund", "I'll cancel it", "if you want I can cancel", "you were refunded last
// month") are not claims. Rules and examples: docs/grading.md.
import { amountsIn } from "./money";
import type { AttributedAction, Claim, ClaimKind } from "./types";

export interface DetectedClaim {
  kind: ClaimKind;
  amount: number | null;
  plan: string | null;
  sentence: string;
}

/** Splits a reply into sentences: lines, then sentence ends followed by space. */
export function sentencesOf(text: string): string[] {
  return text
    .replace(/\r/g, "")
    .split(/\n+/)
    .flatMap((line) => line.split(/(?<=[.!?])\s+(?=[^\s])/))
    .map((s) => s.replace(/^\s*(?:[-*•>]+|\d+[.)])\s+/, "").trim())
    .filter((s) => s.length > 0);
}

/** Clauses of a sentence: separated by ; : dashes, ", " and joining words, so one guard never spills over. */
export function clausesOf(sentence: string): string[] {
  return sentence
    .split(/\s*(?:[;:]|,\s|\s[-–—]\s|\s(?:and|but|so|then|while|whereas|although|though|however|because|since|plus)\s)\s*/i)
    .map((c) => c.trim())
    .filter(Boolean);
}

const NEGATION = /\b(not|never|no|nothing|none|cannot|unable|without|nor|yet to)\b|n't\b/;
const MODAL =
  /\b(will|shall|going to|gonna|would|could|can|may|might|should|must|need to|needs to|want to|wants to|able to|plan to|planning to|about to|happy to|glad to|try to|trying to|let me|ask|asked|asking|request|requested|requesting|recommend|suggest|pending|awaiting|approval|hope|expect)\b|'ll\b|'d\b/;
const CONDITIONAL = /\b(if|unless|once|whether|when|whenever|after|before|until|provided|assuming|in case|as soon as)\b/;
/** A sentence that opens with a condition ("If you'd like, ...") states no fact in any of its clauses. */
const CONDITIONAL_OPENER = /^(?:if|unless|in case|provided|assuming|should you)\b/;
const HISTORICAL = /\b(already|previously|earlier|originally|ago|in the past|back in|last (week|month|year|time|cycle|period))\b/;
const CUSTOMER_SUBJECT = /\byou(?:'ve| have| had)?\s*$/;

const DONE = "issued|processed|initiated|made|sent|submitted|applied|completed|created|posted|approved|done|put through|arranged|granted|given|added|gave|left|scheduled|confirmed|set up|set";
const NOT_A_REFUND = "(?!\\s+(?:request|policy|window|period|process|team|department|eligibility|options?))";
const NOT_A_CREDIT = "(?!\\s+(?:card|note|check|score|limit|request|policy))";

interface Trigger {
  kind: ClaimKind;
  re: RegExp;
  /** The match is a bare verb ("cancelled"), which the customer may be the subject of. */
  bare?: boolean;
}

const TRIGGERS: Trigger[] = [
  { kind: "refund", re: /\brefunded\b/, bare: true },
  { kind: "refund", re: new RegExp(`\\brefunds?\\b${NOT_A_REFUND}.{0,60}?\\b(?:has|have|was|were|is|are)\\s+(?:now\\s+)?(?:been\\s+)?(?:${DONE}|on (?:its|their) way)\\b`) },
  { kind: "refund", re: new RegExp(`\\b(?:${DONE})\\s+(?:you\\s+)?(?:(?:a|an|the|your|this|that|one|full|partial|complete|\\S*\\d\\S*)\\s+){0,4}refunds?\\b${NOT_A_REFUND}`) },
  { kind: "cancel", re: /\bcancell?ed\b/, bare: true },
  { kind: "cancel", re: /\bcancellation\b.{0,60}?\b(?:has|have|was|is)\s+(?:now\s+)?(?:been\s+)?(?:scheduled|processed|confirmed|set|completed|done|submitted|applied)\b/ },
  { kind: "cancel", re: /\b(?:scheduled|processed|confirmed|set up|submitted|applied)\s+(?:the\s+|your\s+|a\s+)?cancellation\b/ },
  { kind: "cancel", re: /\b(?:is|are|has been)\s+(?:now\s+)?(?:set|scheduled)\s+to\s+cancel\b/ },
  { kind: "credit", re: /\bcredited\b/, bare: true },
  { kind: "credit", re: new RegExp(`\\b(?:${DONE})\\s+(?:you\\s+)?(?:(?:a|an|the|your|this|that|one|account|balance|\\S*\\d\\S*)\\s+){0,4}credits?\\b${NOT_A_CREDIT}`) },
  { kind: "credit", re: new RegExp(`\\bcredits?\\b${NOT_A_CREDIT}.{0,60}?\\b(?:has|have|was|were|is|are)\\s+(?:now\\s+)?(?:been\\s+)?(?:${DONE})\\b`) },
  { kind: "void", re: /\bvoided\b/, bare: true },
  { kind: "void", re: /\b(?:marked\b.{0,40}?\bas|is now|are now)\s+void\b/ },
];

const PAYMENT_WORDS = /\b(charges?|payments?|refunds?|invoices?|orders?|transactions?)\b/;
const PLAN_WORDS = /\b(subscriptions?|plans?|membership|renewal|account|seats?)\b/;

const PLAN_VERBS = /\b(switched|moved|upgraded|downgraded|changed|migrated|transferred|put)\b/;

/** Reads every claim of a completed action in a reply. Plan names are matched case-insensitively as words. */
export function detectClaims(text: string, planNames: readonly string[] = []): DetectedClaim[] {
  const out: DetectedClaim[] = [];
  for (const sentence of sentencesOf(text)) {
    if (sentence.endsWith("?") || CONDITIONAL_OPENER.test(sentence.toLowerCase())) continue;
    for (const raw of clausesOf(sentence)) {
      const clause = raw.toLowerCase().replace(/[’‘]/g, "'");
      if (HISTORICAL.test(clause)) continue;
      const found = new Set<ClaimKind>();
      for (const t of TRIGGERS) {
        if (found.has(t.kind)) continue;
        const m = t.re.exec(clause);
        if (!m) continue;
        const prefix = clause.slice(0, m.index);
        if (guarded(prefix, m[0])) continue;
        if (t.bare && CUSTOMER_SUBJECT.test(prefix)) continue;
        // "cancelled the duplicate charge" is about a payment, not a subscription.
        if (t.kind === "cancel" && PAYMENT_WORDS.test(clause) && !PLAN_WORDS.test(clause)) continue;
        found.add(t.kind);
        out.push({ kind: t.kind, amount: amountsIn(raw)[0]?.cents ?? null, plan: null, sentence });
      }
      const plan = planClaim(clause, planNames);
      if (plan) out.push({ kind: "plan_change", amount: null, plan: plan.plan, sentence });
    }
  }
  return out;
}

/** Openers that carry a modal but report a fact ("I can confirm that..."). */
const REPORTING = /\b(?:i|we)?\s*(?:can|could|would like to|am happy to|'m happy to|am glad to|'m glad to|happy to|glad to|want(?:ed)? to)\s+(?:confirm|see|tell you|let you know|report|say|share|inform you|update you)\b/g;

function guarded(rawPrefix: string, match: string): boolean {
  const prefix = rawPrefix.replace(REPORTING, " ");
  return NEGATION.test(prefix) || MODAL.test(prefix) || CONDITIONAL.test(prefix) || NEGATION.test(match.replace(/\bnow\b/, ""));
}

function planClaim(clause: string, planNames: readonly string[]): { plan: string | null } | null {
  for (const name of planNames) {
    const n = escape(name.toLowerCase());
    const verb = new RegExp(`${PLAN_VERBS.source}[^.]*?\\bto\\s+(?:the\\s+)?${n}\\b`).exec(clause);
    const now = new RegExp(`\\b(?:now|currently)\\s+on\\s+(?:the\\s+)?${n}\\b`).exec(clause);
    const m = verb ?? now;
    if (m && !guarded(clause.slice(0, m.index), m[0])) return { plan: name };
  }
  const generic = /\b(upgraded|downgraded)\b/.exec(clause);
  if (generic && /\b(plan|subscription|tier|package)\b/.test(clause) && !guarded(clause.slice(0, generic.index), generic[0]) && !CUSTOMER_SUBJECT.test(clause.slice(0, generic.index)))
    return { plan: null };
  return null;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Checks a claim against the actions attributed to the task. An amount, when named, must equal one action's
 * amount, the sum on one object, or the sum of all actions of that kind.
 */
export function backClaim(claim: DetectedClaim, actions: readonly AttributedAction[], currencyFormat: (c: number) => string): Claim {
  const kinds: Record<ClaimKind, string[]> = {
    refund: ["refund"],
    credit: ["credit"],
    cancel: ["cancel", "cancel_at_period_end"],
    void: ["void"],
    plan_change: ["plan_change"],
  };
  const matching = actions.filter((a) => kinds[claim.kind].includes(a.kind));
  const base = { kind: claim.kind, amount: claim.amount, plan: claim.plan, sentence: claim.sentence };
  const label = claim.kind.replace("_", " ");
  if (!matching.length) return { ...base, backed: false, reason: `the reply claims a ${label} but the diff holds none` };
  if (claim.amount !== null && claim.kind !== "cancel" && claim.kind !== "plan_change") {
    const perObject = new Map<string, number>();
    for (const a of matching) perObject.set(a.object, (perObject.get(a.object) ?? 0) + a.amount);
    const total = matching.reduce((s, a) => s + a.amount, 0);
    const ok = matching.some((a) => a.amount === claim.amount) || [...perObject.values()].includes(claim.amount) || total === claim.amount;
    if (!ok)
      return { ...base, backed: false, reason: `the reply claims a ${label} of ${currencyFormat(claim.amount)} but the diff's ${label}s come to ${currencyFormat(total)}` };
  }
  if (claim.kind === "plan_change" && claim.plan) {
    const named = matching.filter((a) => (a.plan?.to_names.length ?? 0) > 0);
    if (named.length && !named.some((a) => a.plan!.to_names.some((n) => sameName(n, claim.plan!))))
      return { ...base, backed: false, reason: `the reply claims a move to ${claim.plan} but the subscription moved to ${named.flatMap((a) => a.plan!.to_names).join(", ")}` };
  }
  return { ...base, backed: true, reason: `backed by ${matching.map((a) => a.summary).join("; ")}` };
}

/** Plan names match on their first word, case-insensitively ("Growth" matches "Growth monthly"). */
function sameName(actual: string, claimed: string): boolean {
  const first = (s: string) => s.trim().toLowerCase().split(/\s+/)[0] ?? "";
  return first(actual) === first(claimed) || actual.toLowerCase().includes(claimed.toLowerCase());
}

const HANDOFF =
  /\b(escalat\w*|hand(?:ed|ing)?\s+(?:it\s+|this\s+|you\s+|your \w+\s+)?(?:off|over)|pass(?:ed|ing)\s+(?:it\s+|this\s+|your \w+\s+)?(?:on|along)|forward(?:ed|ing)|referr?(?:ed|ing)|looped in|transferr?(?:ed|ing)\s+(?:you|this|it|your)|raised\s+(?:it|this|your)|flagged\s+(?:it|this|your)|(?:colleague|specialist|manager|supervisor|billing team|finance team|accounts team|senior)\b[^.]*\b(?:will|'ll|can|to)\b)/;

/** The sentence in which the reply says the ticket was handed to a person, or null. */
export function handoffSentence(text: string): string | null {
  for (const sentence of sentencesOf(text)) {
    if (CONDITIONAL_OPENER.test(sentence.toLowerCase())) continue;
    for (const raw of clausesOf(sentence)) {
      const clause = raw.toLowerCase().replace(/[’‘]/g, "'");
      const m = HANDOFF.exec(clause);
      if (m && !NEGATION.test(clause.slice(0, m.index)) && !CONDITIONAL.test(clause.slice(0, m.index))) return sentence;
    }
  }
  return null;
}
