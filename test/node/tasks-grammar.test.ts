// The expected grammar, amounts and invariants: every form reads as documented in docs/tasks-file.md, and every
// malformed line is refused with its own message and the column of the token at fault.
import { describe, expect, it } from "vitest";
import { parseExpectedLine, UNKNOWN_ACTION_MESSAGE } from "../../src/core/kinds/account/tasks/expected";
import { checkInvariant, parseInvariant } from "../../src/core/kinds/account/tasks/invariants";
import { formatMoney, parseAmount } from "../../src/core/kinds/account/tasks/money";

const ok = (line: string) => {
  const r = parseExpectedLine(line);
  if (!r.ok) throw new Error(`${line}: ${r.message}`);
  return r.value;
};
const bad = (line: string) => {
  const r = parseExpectedLine(line);
  if (r.ok) throw new Error(`${line} parsed`);
  return r;
};

describe("amounts", () => {
  it.each([
    ["24300", 24300],
    ["$243.00", 24300],
    ["243.00", 24300],
    ["$1,234.56", 123456],
    ["$1,234,567.89", 123456789],
    ["$0.01", 1],
    ["1", 1],
  ])("%s is %i cents", (token, cents) => expect(parseAmount(token)).toEqual({ ok: true, cents }));

  it.each([
    ["$243", "ambiguous"],
    ["$24.3", "exactly two decimals"],
    ["$24.300", "exactly two decimals"],
    ["$12,34.56", "misplaced thousands commas"],
    ["1,234", "misplaced thousands commas"],
    ["0", "more than zero"],
    ["$0.00", "more than zero"],
    ["99999999999999999999", "too large"],
    ["$", "not an amount"],
    ["$-5.00", "not an amount"],
  ])("%s is refused (%s)", (token, words) => {
    const r = parseAmount(token);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toContain(words);
  });

  it("formats dollars with commas, other currencies with their code", () => {
    expect(formatMoney(123456, "usd")).toBe("$1,234.56");
    expect(formatMoney(5, "usd")).toBe("$0.05");
    expect(formatMoney(123456, "eur")).toBe("1,234.56 EUR");
    expect(formatMoney(1500, "jpy")).toBe("1,500 JPY");
  });
});

describe("the expected grammar: forms", () => {
  it("reads each action", () => {
    expect(ok("refund")).toMatchObject({ action: "refund", amount: null, target: null });
    expect(ok("credit $10.00")).toMatchObject({ action: "credit", amount: 1000 });
    expect(ok("void")).toMatchObject({ action: "void" });
    expect(ok("cancel")).toMatchObject({ action: "cancel" });
    expect(ok("cancel at period end")).toMatchObject({ action: "cancel_at_period_end" });
    expect(ok("plan change to Growth")).toMatchObject({ action: "plan_change", plan: { name: "Growth" } });
    expect(ok("none")).toMatchObject({ action: "none" });
    expect(ok("escalate")).toMatchObject({ action: "escalate" });
  });

  it("reads amounts, ids and qualifiers, case-insensitive keywords and loose spacing", () => {
    expect(ok("refund $243.00 on duplicate")).toMatchObject({ amount: 24300, target: { kind: "duplicate" } });
    expect(ok("Refund   2430   ON latest")).toMatchObject({ amount: 2430, target: { kind: "latest" } });
    expect(ok("refund on ch_123")).toMatchObject({ target: { kind: "id", id: "ch_123", prefix: "ch" } });
    expect(ok("refund ch_123")).toMatchObject({ target: { kind: "id", id: "ch_123" } });
    expect(ok("refund $5.00 on pi_9")).toMatchObject({ amount: 500, target: { prefix: "pi" } });
    expect(ok("refund on in_7")).toMatchObject({ target: { prefix: "in" } });
    expect(ok("refund $1.00 on cus_A")).toMatchObject({ target: { prefix: "cus" } });
    expect(ok("credit on in_7")).toMatchObject({ amount: null, target: { prefix: "in" } });
    expect(ok("credit on latest")).toMatchObject({ target: { kind: "latest" } });
    expect(ok("credit $10.00 on cus_A")).toMatchObject({ target: { prefix: "cus" } });
    expect(ok("void in_7")).toMatchObject({ target: { prefix: "in" } });
    expect(ok("void $49.00 on latest")).toMatchObject({ amount: 4900, target: { kind: "latest" } });
    expect(ok("cancel sub_1")).toMatchObject({ target: { prefix: "sub" } });
    expect(ok("CANCEL AT PERIOD END on sub_1")).toMatchObject({ action: "cancel_at_period_end", target: { prefix: "sub" } });
    expect(ok("plan change to Growth yearly on sub_1")).toMatchObject({ plan: { name: "Growth yearly" }, target: { id: "sub_1" } });
    expect(ok("plan change to price_GrowthMonthly sub_1")).toMatchObject({ plan: { name: "price_GrowthMonthly" }, target: { id: "sub_1" } });
    expect(ok("  escalate  ")).toMatchObject({ line: "escalate" });
  });

  it("keeps the line as written (trimmed) for reports", () => {
    expect(ok(" refund $243.00 on duplicate ").line).toBe("refund $243.00 on duplicate");
  });
});

describe("the expected grammar: errors", () => {
  it.each(["", "   ", "reimburse $10.00", "refunds", "plan", "plan Growth", "cancelled", "$10.00 refund", "escalate!"])("'%s' is not an action", (line) => {
    expect(bad(line)).toEqual({ ok: false, message: UNKNOWN_ACTION_MESSAGE, offset: 0 });
  });

  it("names the exact message the spec's users search for", () => {
    expect(UNKNOWN_ACTION_MESSAGE).toBe("expected must be one of refund, credit, void, cancel, cancel at period end, plan change, none, escalate.");
  });

  it.each([
    ["refund $10.00\ncredit $5.00", "must be one line", 0],
    ["cancel at end", "cancel at period end", 7],
    ["cancel at period", "cancel at period end", 7],
    ["plan change Growth", "plan change to <plan>", 12],
    ["plan change to", "plan change to <plan>", 14],
    ["plan change to on sub_1", "plan change to <plan>", 14],
    ["refund $243", "ambiguous", 7],
    ["cancel $10.00", "cancel takes no amount", 7],
    ["cancel at period end 500", "takes no amount", 21],
    ["plan change to Growth $10.00", "plan change takes no amount", 22],
    ["none please", "none takes nothing after it", 5],
    ["escalate on ch_1", "escalate takes nothing after it", 9],
    ["refund sub_1", "sub_1 is a subscription", 7],
    ["refund on re_1", "re_1 is not an object refund can act on", 10],
    ["void on ch_1", "ch_1 is a charge", 8],
    ["credit $1.00 on sub_1", "sub_1 is a subscription", 16],
    ["cancel on in_1", "in_1 is an invoice", 10],
    ["refund on oldest", "unknown target 'oldest'", 10],
    ["void on duplicate", "'on duplicate' does not apply to void", 8],
    ["cancel on duplicate", "'on duplicate' does not apply to cancel", 10],
    ["refund $10.00 on", "'on' needs a target", 16],
    ["refund on ch_1 $10.00", "put the amount before the target", 15],
    ["refund $10.00 on ch_1 please", "unexpected 'please' after the target", 22],
    ["refund $10.00 $5.00", "two amounts", 14],
    ["refund please", "unexpected 'please'", 7],
    ["credit", "credit needs an amount", 6],
    ["credit on cus_A", "credit needs an amount", 6],
  ])("'%s' is refused: %s", (line, words, offset) => {
    const r = bad(line);
    expect(r.message).toContain(words);
    expect(r.offset).toBe(offset);
  });
});

describe("invariants", () => {
  it("reads every comparison and normalises spacing", () => {
    for (const cmp of ["==", "!=", "<=", ">=", "<", ">"]) expect(parseInvariant(`created.refunds ${cmp} 2`)).toMatchObject({ ok: true, value: { op: "created", collection: "refunds", cmp, value: 2, text: `created.refunds${cmp}2` } });
    expect(parseInvariant("deleted.customers==0")).toMatchObject({ ok: true, value: { text: "deleted.customers==0" } });
    expect(parseInvariant("changed.subscriptions<=1")).toMatchObject({ ok: true, value: { op: "changed" } });
  });

  it.each([
    ["removed.customers==0", "must start with created., updated., deleted. or changed."],
    ["deleted.customer==0", "did you mean customers?"],
    ["deleted.widgets==0", "collections: customers"],
    ["deleted.customers=0", "compare with ==, not ="],
    ["deleted.customers", "needs a comparison"],
    ["created.refunds<=", "must be a whole number"],
    ["created.refunds<=-1", "must be a whole number"],
    ["created.refunds<=1.5", "must be a whole number"],
    ["customers==0", "is not an invariant"],
  ])("'%s' is refused: %s", (text, words) => {
    const r = parseInvariant(text);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toContain(words);
  });

  it("checks counts from a diff, absent counting as zero", () => {
    const counts = { created: { refunds: 2 }, updated: { subscriptions: 1 }, deleted: {} };
    const check = (t: string) => {
      const p = parseInvariant(t);
      if (!p.ok) throw new Error(p.message);
      return checkInvariant(p.value, counts);
    };
    expect(check("created.refunds<=2")).toBe(true);
    expect(check("created.refunds<2")).toBe(false);
    expect(check("deleted.customers==0")).toBe(true);
    expect(check("changed.subscriptions==1")).toBe(true);
    expect(check("created.subscriptions!=0")).toBe(false);
  });
});
