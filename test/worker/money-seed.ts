// A billing world with money in every state: paid / open / draft / void / uncollectible invoices, charges
// partially and fully refunded, a duplicated pair, a failed one, payment intents, a seeded credit note.
import { billingSeed, NOW } from "./stripe-helpers";

const DAY = 86400;

export function moneySeed(overrides: { stripe_version?: string } = {}) {
  const base = billingSeed(overrides);
  const subscriptions = base.data.subscriptions.map((s) => (s.id === "sub_Bob" ? { ...s, latest_invoice: "in_BobOpen" } : s));
  const period = (days: number) => ({ start: NOW - days * DAY, end: NOW - days * DAY + 30 * DAY });
  return {
    ...base,
    data: {
      ...base.data,
      subscriptions,
      invoices: [
        {
          id: "in_AlicePaid",
          customer: "cus_Alice",
          status: "paid",
          subscription: "sub_Alice",
          created: NOW - 45 * DAY,
          payment_intent: "pi_AlicePaid",
          lines: [{ id: "il_AlicePaid1", amount: 3000, price: "price_StarterMonthly", quantity: 1, subscription_item: "si_Alice", period: period(45) }],
        },
        {
          id: "in_AliceOpen",
          customer: "cus_Alice",
          status: "open",
          subscription: "sub_Alice",
          created: NOW - 15 * DAY,
          lines: [{ id: "il_AliceOpen1", amount: 3000, price: "price_StarterMonthly", quantity: 1, subscription_item: "si_Alice", period: period(15) }],
        },
        {
          id: "in_AliceDraft",
          customer: "cus_Alice",
          status: "draft",
          created: NOW - DAY,
          lines: [
            { id: "il_AliceSetup", amount: 5000, price: "price_Setup", quantity: 1, description: "Setup fee", period: period(1) },
            { id: "il_AliceExtra", amount: 1200, description: "Extra seats", quantity: 3, period: period(1) },
          ],
        },
        {
          id: "in_BobOpen",
          customer: "cus_Bob",
          status: "open",
          subscription: "sub_Bob",
          created: NOW - 10 * DAY,
          starting_balance: -500,
          payment_intent: "pi_BobOpen",
          lines: [{ id: "il_BobOpen1", amount: 18000, price: "price_GrowthMonthly", quantity: 2, subscription_item: "si_Bob", period: period(10) }],
        },
        {
          id: "in_CarolPaid",
          customer: "cus_Carol",
          status: "paid",
          created: NOW - 20 * DAY,
          charge: "ch_CarolDup1",
          lines: [{ id: "il_CarolPaid1", amount: 2000, description: "Consulting", period: period(20) }],
        },
        { id: "in_CarolOob", customer: "cus_Carol", status: "paid", created: NOW - 19 * DAY, lines: [{ id: "il_CarolOob1", amount: 700, description: "Paid by wire", period: period(19) }] },
        { id: "in_CarolVoid", customer: "cus_Carol", status: "void", created: NOW - 18 * DAY, lines: [{ id: "il_CarolVoid1", amount: 900, period: period(18) }] },
        { id: "in_CarolBad", customer: "cus_Carol", status: "uncollectible", created: NOW - 17 * DAY, lines: [{ id: "il_CarolBad1", amount: 1100, period: period(17) }] },
      ],
      payment_intents: [
        { id: "pi_AlicePaid", customer: "cus_Alice", amount: 3000, status: "succeeded", created: NOW - 45 * DAY },
        { id: "pi_BobOpen", customer: "cus_Bob", amount: 17500, status: "requires_payment_method", created: NOW - 10 * DAY },
      ],
      charges: [
        { id: "ch_AlicePaid", customer: "cus_Alice", amount: 3000, payment_intent: "pi_AlicePaid", created: NOW - 45 * DAY },
        { id: "ch_CarolPartial", customer: "cus_Carol", amount: 10000, created: NOW - 25 * DAY, description: "Annual workshop" },
        { id: "ch_CarolFull", customer: "cus_Carol", amount: 4000, created: NOW - 24 * DAY },
        { id: "ch_CarolDup1", customer: "cus_Carol", amount: 2000, created: NOW - 20 * DAY },
        { id: "ch_CarolDup2", customer: "cus_Carol", amount: 2000, created: NOW - 20 * DAY + 30 },
        { id: "ch_CarolFailed", customer: "cus_Carol", amount: 1500, status: "failed", created: NOW - 3 * DAY },
      ],
      refunds: [
        { id: "re_CarolPartial", charge: "ch_CarolPartial", amount: 2500, reason: "requested_by_customer", created: NOW - 22 * DAY },
        { id: "re_CarolFull", charge: "ch_CarolFull", amount: 4000, created: NOW - 23 * DAY },
      ],
      credit_notes: [
        { id: "cn_CarolSeed", invoice: "in_CarolPaid", lines: [{ id: "cnli_CarolSeed1", amount: 500, description: "Goodwill" }], credit_amount: 500, created: NOW - 19 * DAY },
      ],
    },
  };
}
