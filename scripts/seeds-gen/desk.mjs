// The library desk's directory: the groups tickets move between, the macros agents reach for (each one's preview
// is what the desk would change; see durable-objects/helpdesk/macros.ts) and the custom ticket fields.
import { PLAN_ORDER, PLANS } from "./catalog.mjs";

const AT = "2024-01-08T09:00:00Z";

export const GROUPS = [
  { id: 801, name: "Billing", description: "Refunds, credits, invoices and plan changes", default: true, created_at: AT },
  { id: 802, name: "Billing escalations", description: "Exceptions past the support policy's limits, for the billing lead", created_at: AT },
];

export const MACROS = [
  {
    id: 4001,
    title: "Billing::Refund issued",
    actions: [
      { field: "comment_value", value: "Hi {{ticket.requester.first_name}}, we've refunded the charge. It should reach your card within 5-10 business days." },
      { field: "current_tags", value: "refund_issued" },
      { field: "status", value: "solved" },
    ],
    created_at: AT,
  },
  {
    id: 4002,
    title: "Billing::Escalate to the billing lead",
    actions: [
      { field: "group_id", value: 802 },
      { field: "comment_mode_is_public", value: "false" },
      { field: "comment_value", value: "Escalating: this needs the billing lead's approval under the support policy." },
    ],
    created_at: AT,
  },
  {
    id: 4003,
    title: "Billing::Cancellation confirmed",
    actions: [
      { field: "comment_value", value: "Hi {{ticket.requester.first_name}}, your subscription is set to cancel at the end of the current period." },
      { field: "current_tags", value: "cancellation" },
      { field: "status", value: "solved" },
    ],
    created_at: AT,
  },
  {
    id: 4004,
    title: "Ask for the invoice number",
    actions: [
      { field: "comment_value", value: "Hi {{ticket.requester.first_name}}, could you send us the invoice number so we can look into it?" },
      { field: "status", value: "pending" },
    ],
    created_at: AT,
  },
];

export const TICKET_FIELDS = [
  { id: 360100, type: "tagger", title: "Plan", description: "The plan the customer is on", options: PLAN_ORDER.map((p) => ({ name: PLANS[p].name, value: `plan_${p}` })), created_at: AT },
  { id: 360101, type: "text", title: "Invoice number", created_at: AT },
];
