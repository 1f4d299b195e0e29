// Maps a provider's delivery to what a run needs: an event id (for deduplication) and a ticket that becomes a
// task. Payloads are data only: nothing in them is evaluated, and unknown shapes are refused with a reason.
import { BODY_MAX_DEPTH, describeTreeProblem, findTreeProblem } from "../core/util/safe-tree";
import type { Provider } from "./verify";

export interface WebhookTicket {
  subject: string;
  body: string;
  requester: { email: string; name: string | null };
  tags: string[];
  priority: "low" | "normal" | "high" | "urgent";
  /** An expected line (tasks-file grammar) when the ticket carries one; null = policy-only. */
  expected: string | null;
  external_id: string | null;
}

export type Delivery =
  | { kind: "ticket"; eventId: string; ticket: WebhookTicket }
  | { kind: "ping"; eventId: string | null }
  | { kind: "ignored"; eventId: string | null; reason: string }
  | { kind: "invalid"; reason: string };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v : typeof v === "number" ? String(v) : null);

/** Tag form of an expected key, for help desks whose triggers can only add tags: worlds_expected_refund_2430. */
const EXPECTED_TAG = /^worlds_expected_(refund|credit|void|cancel_at_period_end|cancel|plan_change|none|escalate)(?:_(\d+))?$/;

export function expectedFromTags(tags: string[]): string | null {
  for (const t of tags) {
    const m = EXPECTED_TAG.exec(t);
    if (m) return [m[1].replace(/_/g, " "), m[2]].filter(Boolean).join(" ");
  }
  return null;
}

export function normalizePriority(v: unknown): WebhookTicket["priority"] {
  const s = (str(v) ?? "").toLowerCase();
  if (s === "urgent" || s === "p1") return "urgent";
  if (s === "high" || s === "priority" || s === "p2") return "high";
  if (s === "low" || s === "p4") return "low";
  return "normal";
}

export function htmlToText(html: string): string {
  return html
    .replace(/<(br|\/p|\/div|\/li)\s*\/?>/gi, "\n")
    .replace(/<[^>]*>/g, "")
    .replace(/&nbsp;/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

function tagList(v: unknown): string[] {
  if (typeof v === "string") return v.split(/[\s,]+/).filter(Boolean);
  if (Array.isArray(v)) return v.map((t) => (isObj(t) ? str(t.name) : str(t))).filter((t): t is string => t !== null);
  if (isObj(v) && Array.isArray(v.tags)) return tagList(v.tags);
  return [];
}

function ticket(fields: { subject: unknown; body: unknown; email: unknown; name: unknown; tags: string[]; priority: unknown; expected: unknown; external: unknown }, html: boolean): WebhookTicket | string {
  const email = str(fields.email);
  if (!email || !email.includes("@")) return "the payload names no requester email";
  const rawBody = str(fields.body) ?? "";
  const body = html ? htmlToText(rawBody) : rawBody.trim();
  const subject = str(fields.subject) ?? body.split("\n")[0]?.slice(0, 120) ?? "";
  if (!subject && !body) return "the payload has neither a subject nor a body";
  return {
    subject: subject || "(no subject)",
    body: body || subject,
    requester: { email: email.trim().toLowerCase(), name: str(fields.name) },
    tags: fields.tags,
    priority: normalizePriority(fields.priority),
    expected: str(fields.expected) ?? expectedFromTags(fields.tags),
    external_id: str(fields.external),
  };
}

export function parseDelivery(provider: Provider, rawBody: string, header: (name: string) => string | null): Delivery {
  let payload: unknown;
  try {
    payload = JSON.parse(rawBody);
  } catch {
    return { kind: "invalid", reason: "body is not JSON" };
  }
  if (!isObj(payload)) return { kind: "invalid", reason: "body is not a JSON object" };
  const unsafe = findTreeProblem(payload, BODY_MAX_DEPTH);
  if (unsafe) return { kind: "invalid", reason: `body is refused: ${describeTreeProblem(unsafe)}` };
  if (provider === "zendesk") return zendesk(payload, header);
  if (provider === "intercom") return intercom(payload);
  return front(payload);
}

/**
 * Zendesk sends either a trigger's JSON body (authored with placeholders; docs/webhooks.md gives the template)
 * or an event-subscription payload ({type: "zen:event-type:ticket.created", detail: {...}}).
 */
function zendesk(p: Obj, header: (name: string) => string | null): Delivery {
  const invocation = header("x-zendesk-webhook-invocation-id");
  if (typeof p.type === "string" && p.type.startsWith("zen:event-type:")) {
    const eventId = invocation ?? str(p.id);
    if (!eventId) return { kind: "invalid", reason: "event has no id" };
    if (p.type !== "zen:event-type:ticket.created") return { kind: "ignored", eventId, reason: `event type ${p.type} does not start a run` };
    const d = isObj(p.detail) ? p.detail : {};
    const t = ticket({ subject: d.subject, body: d.description, email: d.requester_email, name: d.requester_name, tags: tagList(d.tags), priority: d.priority, expected: p.expected, external: d.id }, false);
    return typeof t === "string" ? { kind: "invalid", reason: `${t} (event payloads carry only requester_id; use the trigger template, which sends the email)` } : { kind: "ticket", eventId, ticket: t };
  }
  const t = ticket({ subject: p.subject ?? p.title, body: p.description ?? p.latest ?? p.body, email: p.requester ?? p.requester_email, name: p.requester_name, tags: tagList(p.tags), priority: p.priority, expected: p.expected, external: p.ticket_id ?? p.external_id }, false);
  const eventId = invocation ?? str(p.event_id) ?? (str(p.ticket_id) ? `ticket-${str(p.ticket_id)}` : null);
  if (typeof t === "string") return { kind: "invalid", reason: t };
  if (!eventId) return { kind: "invalid", reason: "no X-Zendesk-Webhook-Invocation-Id header and no ticket_id in the body to deduplicate on" };
  return { kind: "ticket", eventId, ticket: t };
}

function intercom(p: Obj): Delivery {
  const eventId = str(p.id);
  if (p.topic === "ping") return { kind: "ping", eventId };
  if (!eventId) return { kind: "invalid", reason: "notification has no id" };
  if (p.topic !== "conversation.user.created" && p.topic !== "ticket.created")
    return { kind: "ignored", eventId, reason: `topic ${String(p.topic)} does not start a run` };
  const item = isObj(p.data) && isObj(p.data.item) ? p.data.item : {};
  const source = isObj(item.source) ? item.source : {};
  const author = isObj(source.author) ? source.author : {};
  const attrs = isObj(item.custom_attributes) ? item.custom_attributes : {};
  const t = ticket({ subject: source.subject ?? item.title, body: source.body, email: author.email, name: author.name, tags: tagList(item.tags), priority: item.priority, expected: attrs.worlds_expected, external: item.id }, true);
  return typeof t === "string" ? { kind: "invalid", reason: t } : { kind: "ticket", eventId, ticket: t };
}

function front(p: Obj): Delivery {
  if (p.type === "sync") return { kind: "ping", eventId: null };
  const ev = isObj(p.payload) ? p.payload : {};
  const eventId = str(ev.id);
  if (!eventId) return { kind: "invalid", reason: "event has no payload.id" };
  if (p.type !== "inbound_received" && ev.type !== "inbound") return { kind: "ignored", eventId, reason: `event type ${String(p.type ?? ev.type)} does not start a run` };
  const conv = isObj(ev.conversation) ? ev.conversation : {};
  const target = isObj(ev.target) && isObj(ev.target.data) ? ev.target.data : {};
  const recipients = Array.isArray(target.recipients) ? target.recipients.filter(isObj) : [];
  const from = recipients.find((r) => r.role === "from") ?? (isObj(target.author) ? target.author : {});
  const t = ticket({ subject: conv.subject ?? target.subject, body: target.text ?? target.body, email: from.handle ?? from.email, name: from.name, tags: tagList(conv.tags), priority: null, expected: null, external: conv.id }, target.text === undefined);
  return typeof t === "string" ? { kind: "invalid", reason: t } : { kind: "ticket", eventId, ticket: t };
}
