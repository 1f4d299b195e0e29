// Disputes (chargebacks and inquiries): list by charge / payment intent / created, retrieve, update (stage
// evidence, metadata, submit), close (accept the loss). The card network decides a dispute, so the only moves
// an agent can make are the merchant's: evidence is staged while a response is needed, submitting sends it for
// review (needs_response -> under_review, an inquiry's warning_needs_response -> warning_under_review) and locks
// it, and closing concedes (needs_response -> lost, an inquiry -> warning_closed). Past the due date neither is
// possible. The money a chargeback withdrew lives in its balance_transactions, fixed when it opened.
import type { z } from "zod";
import { DISPUTE_EVIDENCE_FIELDS, type SeedDocument } from "../../../src/core/world/seed/schema";
import type { SeedContext, SeedRow } from "../../seed/rows";
import type { StoredObject } from "../../store/store";
import { domainError, noSuch } from "../errors";
import { listByFields } from "../list";
import { applyMetadata, bool, emptyable, listShape, metadata, oneOf, range, str, strict, type MetadataParam } from "../params";
import { route, type Resource, type StripeContext } from "../types";
import { disputeTxns } from "./money/ledger";
import { moneyIndex } from "./money/seed-index";

const DAY = 86_400;
/** Statuses in which the merchant still owes a response. */
const AWAITING = new Set(["needs_response", "warning_needs_response"]);
const SUBMITTED: Record<string, string> = { needs_response: "under_review", warning_needs_response: "warning_under_review" };
const CONCEDED: Record<string, string> = { needs_response: "lost", warning_needs_response: "warning_closed" };

type Evidence = Record<string, unknown>;

function emptyEvidence(): Evidence {
  const e: Evidence = Object.fromEntries(DISPUTE_EVIDENCE_FIELDS.map((f) => [f, null]));
  e.enhanced_evidence = {};
  return e;
}

function hasEvidence(e: Evidence): boolean {
  return DISPUTE_EVIDENCE_FIELDS.some((f) => e[f] !== null && e[f] !== undefined);
}

function seedDisputes(doc: SeedDocument, ctx: SeedContext): SeedRow[] {
  const idx = moneyIndex(doc);
  return (doc.data.disputes ?? []).map((d) => {
    const ch = idx.charges.get(d.charge)!;
    const created = d.created ?? ctx.clock;
    const status = d.status ?? "needs_response";
    const amount = d.amount ?? ch.amount;
    const currency = d.currency ?? ch.currency ?? doc.currency;
    const due_by = d.due_by === undefined ? created + 7 * DAY : d.due_by;
    const evidence = { ...emptyEvidence(), ...(d.evidence ?? {}) };
    const submissions = d.submission_count ?? (AWAITING.has(status) ? 0 : 1);
    const card = ch.payment_method_details?.card.brand ?? "visa";
    const obj: StoredObject = {
      id: d.id,
      object: "dispute",
      amount,
      // A decided dispute was decided at its due date (or now, if that is still ahead).
      balance_transactions: disputeTxns({ id: d.id, amount, currency, charge: ch.id, created, status, decided_at: Math.min(due_by ?? ctx.clock, ctx.clock) }, ctx.clock),
      charge: ch.id,
      created,
      currency,
      enhanced_eligibility_types: [],
      evidence,
      evidence_details: {
        due_by: AWAITING.has(status) ? due_by : null,
        enhanced_eligibility: {},
        has_evidence: hasEvidence(evidence),
        past_due: AWAITING.has(status) && due_by !== null && due_by < ctx.clock,
        submission_count: submissions,
        submission_method: submissions > 0 ? "manual" : "not_submitted",
      },
      intended_submission_method: null,
      is_charge_refundable: status.startsWith("warning_"),
      livemode: false,
      metadata: d.metadata ?? {},
      network_reason_code: null,
      payment_intent: ch.payment_intent ?? null,
      payment_method_details: { card: { brand: card, case_type: status.startsWith("warning_") ? "inquiry" : "chargeback", network: card, network_reason_code: null }, type: "card" },
      reason: d.reason ?? "general",
      status,
    };
    return { type: "disputes", obj, customer: ch.customer, created };
  });
}

function requireDispute(ctx: StripeContext, id: string): StoredObject {
  const d = ctx.store.get("disputes", id);
  if (!d) throw noSuch("dispute", id);
  return d;
}

/** A response is still possible: the dispute awaits one and its due date has not passed. */
function requireOpen(ctx: StripeContext, d: StoredObject, doing: string): void {
  const status = d.status as string;
  if (!AWAITING.has(status)) {
    const why = status === "under_review" || status === "warning_under_review" ? "its evidence has already been submitted and is under review" : `it has a status of ${status}`;
    throw domainError(`You cannot ${doing} dispute ${d.id} because ${why}.`);
  }
  const due = (d.evidence_details as { due_by: number | null }).due_by;
  if (due !== null && due < ctx.store.now()) throw domainError(`You cannot ${doing} dispute ${d.id} because its evidence was due by ${due} and that time has passed.`);
}

const listParams = strict({ ...listShape, charge: str().optional(), payment_intent: str().optional(), created: range().optional() });

const listDisputes = listByFields("disputes", "/v1/disputes", "dispute", ["charge", "payment_intent"]);

const evidenceParams = strict(Object.fromEntries(DISPUTE_EVIDENCE_FIELDS.map((f) => [f, emptyable(str().max(20000, `Invalid ${f}: must be at most 20000 characters`)).optional()])) as Record<(typeof DISPUTE_EVIDENCE_FIELDS)[number], z.ZodOptional<ReturnType<typeof emptyable<z.ZodString>>>>);

const updateParams = strict({
  evidence: evidenceParams.optional(),
  metadata: metadata().optional(),
  submit: bool().optional(),
  intended_submission_method: oneOf(["manual", "prefer_manual", "prefer_smart_disputes", "smart_disputes"]).optional(),
});

function updateDispute(ctx: StripeContext, id: string, a: z.output<typeof updateParams>): StoredObject {
  const d = requireDispute(ctx, id);
  const next: StoredObject = { ...d, metadata: applyMetadata(d.metadata as Record<string, string>, a.metadata as MetadataParam | undefined) };
  const touchesEvidence = a.evidence !== undefined || a.submit === true || a.intended_submission_method !== undefined;
  // Metadata stays writable whatever the dispute's state; the response itself only while one is owed.
  if (touchesEvidence) requireOpen(ctx, d, a.submit ? "submit evidence for" : "update evidence on");
  if (a.intended_submission_method !== undefined) next.intended_submission_method = a.intended_submission_method;
  const details = { ...(d.evidence_details as Record<string, unknown>) };
  if (a.evidence !== undefined) {
    const evidence = { ...(d.evidence as Evidence) };
    for (const [k, v] of Object.entries(a.evidence)) if (v !== undefined) evidence[k] = v;
    next.evidence = evidence;
    details.has_evidence = hasEvidence(evidence);
  }
  if (a.submit === true) {
    next.status = SUBMITTED[d.status as string];
    details.submission_count = (details.submission_count as number) + 1;
    details.submission_method = "manual";
    details.due_by = null;
    details.past_due = false;
  }
  next.evidence_details = details;
  return ctx.store.update("disputes", d.id, next);
}

function closeDispute(ctx: StripeContext, id: string): StoredObject {
  const d = requireDispute(ctx, id);
  requireOpen(ctx, d, "close");
  const details = { ...(d.evidence_details as Record<string, unknown>), due_by: null, past_due: false };
  const status = CONCEDED[d.status as string];
  // A lost chargeback already returned the money to the cardholder; a closed inquiry leaves the charge as it was.
  return ctx.store.update("disputes", d.id, { ...d, status, is_charge_refundable: status !== "lost" && d.is_charge_refundable === true, evidence_details: details });
}

export const disputes: Resource = {
  type: "disputes",
  object: "dispute",
  prefix: "du",
  seed: seedDisputes,
  expandable: ["charge", "payment_intent"],
  routes: [
    route("GET", "/v1/disputes", listParams, listDisputes),
    route("GET", "/v1/disputes/:id", strict({}), (ctx, _a, p) => requireDispute(ctx, p.id)),
    route("POST", "/v1/disputes/:id", updateParams, (ctx, a, p) => updateDispute(ctx, p.id, a)),
    route("POST", "/v1/disputes/:id/close", strict({}), (ctx, _a, p) => closeDispute(ctx, p.id)),
  ],
};
