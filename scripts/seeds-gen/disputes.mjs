// Chargebacks in the library account: a few background customers' card payments disputed by their banks, in
// the states a support agent meets (one awaiting a response, one inquiry, one already under review, one won,
// one lost). Only background payments are picked (never a cast customer's, whom the tickets and keys name), and
// only payments nothing was refunded from, so every existing key still holds. Marks each charge disputed.
import { hash32 } from "./prng.mjs";
import { CLOCK, DAY } from "./time.mjs";

const PLAN = [
  { status: "needs_response", reason: "fraudulent", opened: 4, due: 10 },
  { status: "warning_needs_response", reason: "product_unacceptable", opened: 2, due: 12 },
  { status: "under_review", reason: "subscription_canceled", opened: 20, due: -6, evidence: { cancellation_rebuttal: "The workspace was used through the whole billed period; no cancellation was requested before renewal." } },
  { status: "won", reason: "unrecognized", opened: 70, due: -56, evidence: { product_description: "Acme Workspace subscription, billed monthly", uncategorized_text: "Statement descriptor ACME WORKSPACE; the customer logged in the day after the charge." } },
  { status: "lost", reason: "credit_not_processed", opened: 50, due: -36 },
];

export function addDisputes(ledger, castIds) {
  const candidates = ledger.charges
    .filter((c) => !castIds.has(c.customer) && c.status === "succeeded" && c.amount_refunded === 0 && !ledger.refunds.some((r) => r.charge === c.id))
    .sort((a, b) => hash32(`dispute:${a.id}`) - hash32(`dispute:${b.id}`) || (a.id < b.id ? -1 : 1));
  const used = new Set();
  const disputes = [];
  for (const p of PLAN) {
    // Opened some days after a payment old enough to be disputed then; one dispute per customer.
    const ch = candidates.find((c) => !used.has(c.customer) && c.created + DAY < CLOCK - p.opened * DAY);
    if (!ch) throw new Error(`no background charge to dispute as ${p.status}`);
    used.add(ch.customer);
    ch.disputed = true;
    const created = CLOCK - p.opened * DAY;
    disputes.push({
      id: `du_${ch.id.slice(3)}`,
      charge: ch.id,
      reason: p.reason,
      status: p.status,
      created,
      due_by: CLOCK + p.due * DAY,
      ...(p.evidence ? { evidence: p.evidence, submission_count: 1 } : {}),
    });
  }
  return disputes.sort((a, b) => a.created - b.created);
}
