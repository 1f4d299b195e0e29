// The desk's directory objects as the seed writes them: organizations, groups, macros and ticket fields (the
// system fields every desk has, then the seed's custom ones). Stored in the API's shapes minus the url.
import type { SeedDocument, SeedTicketField } from "../../src/core/world/seed/schema";
import type { SeedRow } from "../seed/rows";
import type { Store } from "../store/store";
import { customerIdForEmail } from "./people";
import { isoSeconds, TICKET_PRIORITIES, TICKET_STATUSES, TICKET_TYPES, unixOf, type StoredGroup, type StoredMacro, type StoredOrganization, type StoredTicketField } from "./shapes";

const iso = (value: string | undefined, fallback: string) => (value === undefined ? fallback : isoSeconds(unixOf(value)));

/** Every desk has these, ahead of the custom fields; their options are the API's own. */
const SYSTEM_FIELDS: Array<{ type: string; title: string; description: string; options?: readonly string[] }> = [
  { type: "subject", title: "Subject", description: "" },
  { type: "description", title: "Description", description: "Please enter the details of your request." },
  { type: "status", title: "Status", description: "Request status", options: TICKET_STATUSES },
  { type: "tickettype", title: "Type", description: "Request type", options: TICKET_TYPES },
  { type: "priority", title: "Priority", description: "Request priority", options: TICKET_PRIORITIES },
  { type: "group", title: "Group", description: "Request group" },
  { type: "assignee", title: "Assignee", description: "Agent assigned to your request" },
];

function fieldDoc(id: number, f: { type: string; title: string; description: string }, position: number, at: string, system: boolean): StoredTicketField {
  return {
    id: String(id),
    type: f.type,
    title: f.title,
    raw_title: f.title,
    description: f.description,
    raw_description: f.description,
    position,
    active: true,
    required: f.type === "subject" || f.type === "description",
    collapsed_for_agents: false,
    regexp_for_validation: null,
    title_in_portal: f.title,
    raw_title_in_portal: f.title,
    visible_in_portal: system,
    editable_in_portal: system,
    required_in_portal: f.type === "subject" || f.type === "description",
    agent_description: null,
    tag: null,
    removable: !system,
    created_at: at,
    updated_at: at,
  };
}

function customField(f: SeedTicketField, position: number, clockIso: string, optionId: () => number): StoredTicketField {
  const at = iso(f.created_at, clockIso);
  const doc: StoredTicketField = {
    ...fieldDoc(f.id, { type: f.type, title: f.title, description: f.description ?? "" }, position, at, false),
    active: f.active ?? true,
    required: f.required ?? false,
    tag: f.type === "checkbox" ? (f.tag ?? null) : null,
  };
  if (f.type === "tagger" || f.type === "multiselect")
    doc.custom_field_options = (f.options ?? []).map((o) => ({ id: optionId(), name: o.name, raw_name: o.name, value: o.value, default: false }));
  return doc;
}

export function seedDirectory(seed: SeedDocument, clock: number, store: Store): SeedRow[] {
  const d = seed.data;
  const clockIso = isoSeconds(clock);
  const rows: SeedRow[] = [];
  const row = (type: SeedRow["type"], obj: SeedRow["obj"], customer: string | null, at: string) => rows.push({ type, obj, customer, created: unixOf(at) });

  for (const g of d.groups ?? []) {
    const at = iso(g.created_at, clockIso);
    const doc: StoredGroup = { id: String(g.id), name: g.name, description: g.description ?? "", default: g.default ?? false, deleted: false, is_public: g.is_public ?? true, created_at: at, updated_at: at };
    row("groups", doc, null, at);
  }
  for (const o of d.organizations ?? []) {
    const at = iso(o.created_at, clockIso);
    const doc: StoredOrganization = {
      id: String(o.id),
      name: o.name,
      shared_tickets: false,
      shared_comments: false,
      external_id: o.external_id ?? null,
      domain_names: o.domain_names ?? [],
      details: o.details ?? null,
      notes: o.notes ?? null,
      group_id: o.group_id ?? null,
      tags: [...new Set(o.tags ?? [])],
      organization_fields: {},
      created_at: at,
      updated_at: at,
    };
    row("organizations", doc, organizationCustomer(seed, o.id), at);
  }
  (d.macros ?? []).forEach((m, i) => {
    const at = iso(m.created_at, clockIso);
    const doc: StoredMacro = {
      id: String(m.id),
      title: m.title,
      raw_title: m.title,
      description: m.description ?? null,
      active: m.active ?? true,
      default: false,
      position: i + 1,
      restriction: null,
      actions: m.actions.map((a) => ({ field: a.field, value: a.value })),
      created_at: at,
      updated_at: at,
    };
    row("macros", doc, null, at);
  });
  const custom = d.ticket_fields ?? [];
  const maxField = Math.max(0, ...custom.map((f) => f.id));
  SYSTEM_FIELDS.forEach((f, i) => {
    const doc = fieldDoc(store.nextNumber("ticket_field", maxField), f, i + 1, clockIso, true);
    if (f.options) doc.system_field_options = f.options.map((v) => ({ name: v.charAt(0).toUpperCase() + v.slice(1), value: v }));
    row("ticket_fields", doc, null, clockIso);
  });
  const optionId = () => store.nextNumber("field_option");
  custom.forEach((f, i) => row("ticket_fields", customField(f, SYSTEM_FIELDS.length + i + 1, clockIso, optionId), null, iso(f.created_at, clockIso)));
  return rows;
}

/**
 * The billing customer an organization belongs to for attribution: that of its lowest-id member who is a billing
 * customer, null when none is.
 */
export function organizationCustomer(seed: SeedDocument, orgId: number): string | null {
  const members = seed.data.users.filter((u) => u.organization_id === orgId).sort((a, b) => a.id - b.id);
  for (const u of members) {
    const c = customerIdForEmail(seed.data.customers, u.email);
    if (c) return c;
  }
  return null;
}
