// The help desk's stored documents and how they are presented. Stored documents are the API's shapes minus the
// `url` (which depends on the host the client used, and must not leak into the diff); the store keys every
// object by a string id, so the stored `id` is the decimal string and presentation turns it back into a number.
import type { StoredObject } from "../store/store";

export const TICKET_STATUSES = ["new", "open", "pending", "hold", "solved", "closed"] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];
export const TICKET_PRIORITIES = ["low", "normal", "high", "urgent"] as const;
export type TicketPriority = (typeof TICKET_PRIORITIES)[number];
export const TICKET_TYPES = ["problem", "incident", "question", "task"] as const;
export type TicketType = (typeof TICKET_TYPES)[number];

export interface Via {
  channel: string;
  source: { from: Record<string, unknown>; to: Record<string, unknown>; rel: string | null };
}

export type StoredTicket = StoredObject & {
  external_id: string | null;
  type: TicketType | null;
  subject: string;
  raw_subject: string;
  description: string;
  priority: TicketPriority | null;
  status: TicketStatus;
  requester_id: number;
  submitter_id: number;
  assignee_id: number | null;
  group_id: number | null;
  organization_id: number | null;
  tags: string[];
  is_public: boolean;
  via: Via;
  created_at: string;
  updated_at: string;
};

export type StoredComment = StoredObject & {
  ticket_id: number;
  type: "Comment";
  author_id: number;
  body: string;
  html_body: string;
  plain_body: string;
  public: boolean;
  attachments: unknown[];
  audit_id: number | null;
  via: Via;
  metadata: Record<string, unknown>;
  created_at: string;
};

export type UserRole = "end-user" | "agent" | "admin";

export type StoredUser = StoredObject & {
  name: string;
  email: string;
  role: UserRole;
  organization_id: number | null;
  tags: string[];
  created_at: string;
  updated_at: string;
};

export type StoredOrganization = StoredObject & {
  name: string;
  domain_names: string[];
  details: string | null;
  notes: string | null;
  external_id: string | null;
  group_id: number | null;
  shared_tickets: boolean;
  shared_comments: boolean;
  tags: string[];
  organization_fields: Record<string, unknown>;
  created_at: string;
  updated_at: string;
};

export type StoredGroup = StoredObject & {
  name: string;
  description: string;
  default: boolean;
  deleted: boolean;
  is_public: boolean;
  created_at: string;
  updated_at: string;
};

export interface MacroAction {
  field: string;
  value: string | number | boolean | null | Array<string | number>;
}

export type StoredMacro = StoredObject & {
  title: string;
  raw_title: string;
  description: string | null;
  active: boolean;
  default: boolean;
  position: number;
  restriction: Record<string, unknown> | null;
  actions: MacroAction[];
  created_at: string;
  updated_at: string;
};

export type StoredTicketField = StoredObject & {
  type: string;
  title: string;
  raw_title: string;
  description: string;
  active: boolean;
  required: boolean;
  removable: boolean;
  position: number;
  tag: string | null;
  custom_field_options?: Array<{ id: number; name: string; raw_name: string; value: string; default: boolean }>;
  created_at: string;
  updated_at: string;
};

/** One ticket write as the help desk records it: who, when, and the events (comment, changes) it made. */
export type StoredAudit = StoredObject & {
  ticket_id: number;
  created_at: string;
  author_id: number;
  metadata: { system: Record<string, unknown>; custom: Record<string, unknown> };
  via: Via;
  events: Array<Record<string, unknown> & { id: number; type: string }>;
};

export function via(channel: string): Via {
  return { channel, source: { from: {}, to: {}, rel: null } };
}

/** The rest of a ticket's fields, as the API always carries them; the seed and the agent set the others. */
export function ticketDefaults(): Record<string, unknown> {
  return {
    recipient: null,
    organization_id: null,
    group_id: null,
    collaborator_ids: [],
    follower_ids: [],
    email_cc_ids: [],
    forum_topic_id: null,
    problem_id: null,
    has_incidents: false,
    due_at: null,
    custom_fields: [],
    fields: [],
    satisfaction_rating: null,
    sharing_agreement_ids: [],
    followup_ids: [],
    custom_status_id: null,
    ticket_form_id: null,
    brand_id: null,
    allow_channelback: false,
    allow_attachments: true,
    from_messaging_channel: false,
  };
}

export function userDefaults(): Record<string, unknown> {
  return {
    active: true,
    verified: true,
    shared: false,
    shared_agent: false,
    suspended: false,
    alias: null,
    phone: null,
    photo: null,
    locale: "en-US",
    locale_id: 1,
    time_zone: "Etc/UTC",
    iana_time_zone: "Etc/UTC",
    organization_id: null,
    external_id: null,
    tags: [],
    details: null,
    notes: null,
    signature: null,
    moderator: false,
    only_private_comments: false,
    restricted_agent: false,
    ticket_restriction: null,
    custom_role_id: null,
    default_group_id: null,
    user_fields: {},
    last_login_at: null,
  };
}

/** API base for links in responses: the origin the client used plus the help desk's prefix. */
export function apiBase(origin: string): string {
  return `${origin}/api/v2`;
}

function present(obj: StoredObject, url: string | null): Record<string, unknown> {
  const { id, ...rest } = obj;
  return url === null ? { id: Number(id), ...rest } : { id: Number(id), url, ...rest };
}

export function presentTicket(t: StoredTicket, origin: string): Record<string, unknown> {
  // generated_timestamp moves with every update; derived here so the stored document (and the diff) stays the
  // ticket's own fields.
  return { ...present(t, `${apiBase(origin)}/tickets/${t.id}.json`), generated_timestamp: unixOf(t.updated_at) };
}

export function presentComment(c: StoredComment): Record<string, unknown> {
  // Zendesk's comment objects carry no ticket_id; the twin keeps it only to find a ticket's comments.
  const { ticket_id: _ticket, ...rest } = c;
  return present(rest as StoredObject, null);
}

export function presentUser(u: StoredUser, origin: string): Record<string, unknown> {
  return present(u, `${apiBase(origin)}/users/${u.id}.json`);
}

export function presentOrganization(o: StoredOrganization, origin: string): Record<string, unknown> {
  return present(o, `${apiBase(origin)}/organizations/${o.id}.json`);
}

export function presentGroup(g: StoredGroup, origin: string): Record<string, unknown> {
  return present(g, `${apiBase(origin)}/groups/${g.id}.json`);
}

export function presentMacro(m: StoredMacro, origin: string): Record<string, unknown> {
  return present(m, `${apiBase(origin)}/macros/${m.id}.json`);
}

export function presentTicketField(f: StoredTicketField, origin: string): Record<string, unknown> {
  return present(f, `${apiBase(origin)}/ticket_fields/${f.id}.json`);
}

export function presentAudit(a: StoredAudit): Record<string, unknown> {
  return present(a, null);
}

/** ISO-8601 without milliseconds, as the help desk writes timestamps. */
export function isoSeconds(unix: number): string {
  return new Date(unix * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
}

export function unixOf(iso: string): number {
  return Math.floor(Date.parse(iso) / 1000);
}
