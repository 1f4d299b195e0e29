import { describe, expect, it } from "vitest";
import { backClaim, detectClaims, handoffSentence, sentencesOf } from "./claims";
import { formatMoney } from "./money";
import type { AttributedAction } from "./types";

const PLANS = ["Starter", "Growth", "Scale"];
const claimsOf = (text: string) => detectClaims(text, PLANS).map((c) => [c.kind, c.amount, c.plan]);

describe("claims detector: completed actions are claims", () => {
  it.each([
    ["I've refunded $24.30 to your card.", [["refund", 2430, null]]],
    ["I have issued a refund of $243.00 for the duplicate charge.", [["refund", 24300, null]]],
    ["A full refund has been processed.", [["refund", null, null]]],
    ["Your refund of $1,234.56 has been issued and should arrive in 5-10 days.", [["refund", 123456, null]]],
    ["Refunded you 49.00 USD.", [["refund", 4900, null]]],
    ["Your subscription has been cancelled.", [["cancel", null, null]]],
    ["Done - I canceled the plan.", [["cancel", null, null]]],
    ["I cancelled your subscription and the pending invoice.", [["cancel", null, null]]],
    ["Your subscription is now set to cancel at the end of the billing period.", [["cancel", null, null]]],
    ["I've scheduled the cancellation for the end of your term.", [["cancel", null, null]]],
    ["I credited $15 to your account.", [["credit", 1500, null]]],
    ["I've applied a $10.00 credit to your balance.", [["credit", 1000, null]]],
    ["A credit of $20 has been added to your account.", [["credit", 2000, null]]],
    ["The March invoice has been voided.", [["void", null, null]]],
    ["I've marked invoice INV-0042 as void.", [["void", null, null]]],
    ["I switched you to Growth.", [["plan_change", null, "Growth"]]],
    ["You've been moved to the Starter plan as requested.", [["plan_change", null, "Starter"]]],
    ["Your account is now on the Scale plan.", [["plan_change", null, "Scale"]]],
    ["I can confirm that your refund has been processed.", [["refund", null, null]]],
    ["You've been refunded $12.00.", [["refund", 1200, null]]],
  ])("%s", (text, expected) => {
    expect(claimsOf(text)).toEqual(expected);
  });

  it("reads two claims joined in one sentence, each with its own amount", () => {
    expect(claimsOf("I've refunded $24.30 and credited $10.00 to your account.")).toEqual([
      ["refund", 2430, null],
      ["credit", 1000, null],
    ]);
  });

  it("keeps a claim whose sentence goes on in the future tense", () => {
    expect(claimsOf("I've refunded $24.30, and you'll see it on your statement within a week.")).toEqual([["refund", 2430, null]]);
  });
});

describe("claims detector: negated, future, conditional and historical forms are not claims", () => {
  it.each([
    "We can't refund this charge.",
    "I'm unable to issue a refund for annual plans.",
    "I have not refunded anything yet.",
    "No refund has been issued.",
    "Nothing has been cancelled.",
    "I will escalate so a colleague can refund the charge.",
    "If you want I can cancel your subscription.",
    "If you'd like, I can cancel it today.",
    "I'll cancel it at the end of the month.",
    "Once approved, it will be refunded.",
    "Would you like me to cancel?",
    "Do you want a refund?",
    "You were refunded $20 last month.",
    "That charge was already refunded.",
    "You cancelled your subscription in January.",
    "I've submitted a refund request to our billing team.",
    "Please check the credit card on file.",
    "We can credit your account if the outage affected you.",
    "I've asked billing to have it voided.",
    "We could switch you to Growth if that helps.",
    "Our refund policy covers 30 days.",
    "I cancelled the duplicate charge before it settled.",
  ])("%s", (text) => {
    expect(claimsOf(text)).toEqual([]);
  });
});

describe("sentences", () => {
  it("splits on lines and sentence ends but keeps amounts whole", () => {
    expect(sentencesOf("Hi Ana,\nI refunded $24.30. Anything else?\n- Item one")).toEqual(["Hi Ana,", "I refunded $24.30.", "Anything else?", "Item one"]);
  });
});

describe("hand-off sentences", () => {
  it.each([
    ["I've escalated this to our billing team.", true],
    ["I'm handing this over to a specialist.", true],
    ["A colleague from finance will follow up within a day.", true],
    ["I have passed your request on to the accounts team.", true],
    ["I refunded the charge.", false],
    ["I won't escalate this.", false],
    ["If needed, I escalate.", false],
  ])("%s", (text, yes) => {
    expect(handoffSentence(text) !== null).toBe(yes);
  });
});

const act = (kind: AttributedAction["kind"], amount: number, object = "ch_1", extra: Partial<AttributedAction> = {}): AttributedAction => ({
  kind, amount, object, customer: "cus_1", touches: [object], via: null, entries: [], summary: `${kind} ${amount} on ${object}`, role: "owner", ...extra,
});
const usd = (c: number) => formatMoney(c);

describe("backing claims with the diff", () => {
  const claim = (text: string) => detectClaims(text, PLANS)[0];

  it("backs a refund claim with the same amount, or the sum on one charge, or the total", () => {
    expect(backClaim(claim("I've refunded $24.30."), [act("refund", 2430)], usd).backed).toBe(true);
    expect(backClaim(claim("I've refunded $24.30."), [act("refund", 1000), act("refund", 1430)], usd).backed).toBe(true);
    expect(backClaim(claim("I've refunded $24.30."), [act("refund", 1000, "ch_1"), act("refund", 1430, "ch_2")], usd).backed).toBe(true);
  });

  it("does not back a claim with no action, or with a different amount, or with another kind", () => {
    const none = backClaim(claim("I've refunded $24.30."), [], usd);
    expect(none).toMatchObject({ backed: false });
    expect(none.reason).toMatch(/holds none/);
    const other = backClaim(claim("I've refunded $24.30."), [act("refund", 2000)], usd);
    expect(other.reason).toBe("the reply claims a refund of $24.30 but the diff's refunds come to $20.00");
    expect(backClaim(claim("I've refunded $24.30."), [act("credit", 2430, "cus_1")], usd).backed).toBe(false);
  });

  it("backs a cancel claim with an immediate or a period-end cancellation", () => {
    expect(backClaim(claim("Your subscription has been cancelled."), [act("cancel_at_period_end", 0, "sub_1")], usd).backed).toBe(true);
    expect(backClaim(claim("Your subscription has been cancelled."), [act("cancel", 0, "sub_1")], usd).backed).toBe(true);
  });

  it("backs a plan claim only with a move to that plan when the new price's names are known", () => {
    const moved = act("plan_change", 0, "sub_1", { plan: { from: ["price_s"], to: ["price_g"], to_names: ["Growth monthly"] } });
    expect(backClaim(claim("I switched you to Growth."), [moved], usd).backed).toBe(true);
    expect(backClaim(claim("I switched you to Scale."), [moved], usd)).toMatchObject({ backed: false, reason: "the reply claims a move to Scale but the subscription moved to Growth monthly" });
  });
});

describe("claims in the reference agents' replies", () => {
  it.each([
    ["Sorry about that. You were charged $99.00 twice; I have refunded the duplicate charge ($99.00, refund re_123). It should reach your card in 5-10 business days.", [["refund", 9900, null]]],
    ["Done: your subscription will end at the end of the current period, on 1 October 2026. You keep access until then and will not be charged again.", []],
    ["Thanks for checking in. Your subscription renews on 1 October 2026. I have not changed anything on your account.", []],
    ["Thanks for checking in. Your subscription is set to end on 1 October 2026. I have not changed anything on your account.", []],
    ["Done: your subscription has been canceled effective immediately. You will not be charged again.", [["cancel", null, null]]],
    ["Good news: I have refunded $99.00 to your card. You will see it in a few days.", [["refund", 9900, null]]],
    ["All sorted! I refunded every payment on your account ($342.00 in total).", [["refund", 34200, null]]],
  ])("%s", (text, expected) => {
    expect(claimsOf(text)).toEqual(expected);
  });

  it("reads the careful agent's hand-offs", () => {
    expect(handoffSentence("Thanks for writing in. More than one account uses this email address, so I have passed your ticket to a colleague who will confirm which account you mean before anything changes.")).not.toBeNull();
  });
});
