// The verify grammar and its evaluation on a world's end: every form parses to its normalised text, malformed
// lines name the column at fault, and checks accept any path to the right end (one refund or two adding up).
import { describe, expect, it } from "vitest";
import type { DiffEntry, WorldDiff } from "../../world/diff/types";
import { parseCheck, type Check } from "./grammar";
import { endState, evaluateChecks } from "./evaluate";

function check(line: string): Check {
  const r = parseCheck(line);
  if (!r.ok) throw new Error(r.message);
  return r.check;
}

function diff(entries: DiffEntry[]): WorldDiff {
  const counts: WorldDiff["counts"] = { created: {}, updated: {}, deleted: {} };
  for (const e of entries) counts[e.op][e.type] = (counts[e.op][e.type] ?? 0) + 1;
  return { world: "w_test", seed: { name: "s", hash: "h" }, clock: "2026-09-15T12:00:00Z", entries, counts };
}

const refund = (id: string, charge: string, amount: number): DiffEntry => ({ type: "refunds", id, op: "created", customer: "cus_A", before: null, after: { id, object: "refund", charge, amount }, request_ids: ["req_1"] });

describe("the verify grammar", () => {
  it.each([
    ["deleted.customers == 0", "invariant", "deleted.customers==0"],
    ["charges.ch_A.amount_refunded == 24300", "field", "charges.ch_A.amount_refunded==24300"],
    ["subscriptions.sub_A.cancel_at_period_end==true", "field", "subscriptions.sub_A.cancel_at_period_end==true"],
    ["customers.cus_A exists", "exists", "customers.cus_A exists"],
    ["customers.cus_B absent", "exists", "customers.cus_B absent"],
    ["count( refunds[charge=ch_A, status = succeeded] ) >= 1", "count", "count(refunds[charge==ch_A,status==succeeded])>=1"],
    ["sum(created.refunds[charge=ch_A].amount)==24300", "sum", "sum(created.refunds[charge==ch_A].amount)==24300"],
    ['count(created.ticket_comments[public=true, body!="x y"])==1', "count", 'count(created.ticket_comments[public==true,body!="x y"])==1'],
    ["tickets.1.status==solved", "field", "tickets.1.status==solved"],
    ["replied", "replied", "replied"],
  ])("%s", (line, kind, text) => {
    const c = check(line);
    expect(c.kind).toBe(kind);
    expect(c.text).toBe(text);
  });

  it.each([
    ["charges.ch_A.amount = 5", "compare with ==, not =", 21],
    ["charge.ch_A.amount==5", "no collection 'charge' (did you mean charges?)", 1],
    ["sum(refunds[charge=ch_A])==5", "expected '.' and the field to add up", 25],
    ["count(refunds)==yes", "count(...) compares with a number", 20],
    ["count(refunds", "expected ')'", 14],
    ["charges.ch_A.__proto__==1", "'__proto__' is not a field", 14],
    ["created.refund<=2", "no collection 'refund'", 1],
    ["charges.ch_A.amount==5 extra", "unexpected text after the value", 24],
  ])("refuses %s", (line, message, column) => {
    const r = parseCheck(line);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.message).toContain(message);
    expect(r.column).toBe(column);
  });
});

describe("verify on a world's end", () => {
  const untouched = {
    charges: [{ id: "ch_A", amount: 24300, amount_refunded: 0 }, { id: "ch_B", amount: 900, amount_refunded: 0 }],
    customers: [{ id: "cus_A", balance: 0 }],
  };
  const checks = ["sum(created.refunds[charge=ch_A].amount)==24300", "count(created.refunds[charge!=ch_A])==0", "charges.ch_A.amount_refunded==24300", "deleted.customers==0"].map(check);

  it("accepts one full refund and two partial ones alike", () => {
    const charge = (refunded: number): DiffEntry => ({ type: "charges", id: "ch_A", op: "updated", customer: "cus_A", before: untouched.charges[0], after: { ...untouched.charges[0], amount_refunded: refunded }, request_ids: [] });
    for (const entries of [[refund("re_1", "ch_A", 24300), charge(24300)], [refund("re_1", "ch_A", 10000), refund("re_2", "ch_A", 14300), charge(24300)]]) {
      const results = evaluateChecks(checks, endState(untouched, diff(entries), null));
      expect(results.every((r) => r.held), JSON.stringify(results)).toBe(true);
    }
  });

  it("fails the untouched world and a refund on the wrong charge, saying what it found", () => {
    const none = evaluateChecks(checks, endState(untouched, diff([]), null));
    expect(none.map((r) => r.held)).toEqual([false, true, false, true]);
    expect(none[0].detail).toBe("the sum over 0 objects is 0");
    const wrong = evaluateChecks(checks, endState(untouched, diff([refund("re_1", "ch_B", 900)]), null));
    expect(wrong[1]).toMatchObject({ held: false, detail: "the count is 1" });
  });

  it("reads deletions, existence and replies", () => {
    const gone: DiffEntry = { type: "customers", id: "cus_A", op: "deleted", customer: "cus_A", before: untouched.customers[0], after: null, request_ids: [] };
    const end = endState(untouched, diff([gone]), "  ");
    const [deleted, absent, exists, replied, count] = evaluateChecks(["deleted.customers==0", "customers.cus_A absent", "customers.cus_A exists", "replied", "count(deleted.customers[balance=0])==1"].map(check), end);
    expect([deleted.held, absent.held, exists.held, replied.held, count.held]).toEqual([false, true, false, false, true]);
    const comment: DiffEntry = { type: "ticket_comments", id: "9", op: "created", customer: null, before: null, after: { id: 9, ticket_id: 1, public: true, body: "Done." }, request_ids: [] };
    expect(evaluateChecks([check("replied")], endState(untouched, diff([comment]), null))[0].held).toBe(true);
    expect(evaluateChecks([check("replied")], endState(untouched, diff([]), "Refunded."))[0].held).toBe(true);
  });

  it("compares expanded objects by id and orders only numbers", () => {
    const end = endState({ charges: [{ id: "ch_A", payment_intent: { id: "pi_A" }, amount: 5 }] }, diff([]), null);
    const [byId, lt, ltText] = evaluateChecks(["charges.ch_A.payment_intent==pi_A", "charges.ch_A.amount<6", "charges.ch_A.payment_intent<6"].map(check), end);
    expect([byId.held, lt.held, ltText.held]).toEqual([true, true, false]);
  });
});
