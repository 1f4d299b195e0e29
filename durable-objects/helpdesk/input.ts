// The request bodies the help desk accepts for ticket writes, validated at the boundary. Like Zendesk, read-only
// fields an agent echoes back from a GET (id, url, created_at, description...) are accepted and ignored.
import { z } from "zod";
import { BODY_MAX_DEPTH, describeTreeProblem, findTreeProblem } from "../../src/core/util/safe-tree";
import { recordInvalid, type FieldProblem, badRequest } from "./errors";
import { TICKET_PRIORITIES, TICKET_STATUSES, TICKET_TYPES } from "./shapes";

export const bool = z.union([z.boolean(), z.enum(["true", "false"]).transform((v) => v === "true")]);
export const userId = z.union([z.number().int().positive(), z.string().regex(/^\d+$/).transform(Number)]);
export const tagList = z.union([
  z.array(z.string()),
  // A space- or comma-separated string is accepted too, as the help desk does.
  z.string().transform((s) => s.split(/[\s,]+/).filter(Boolean)),
]);

export const commentInput = z.looseObject({
  body: z.string().optional(),
  html_body: z.string().optional(),
  public: bool.optional(),
  author_id: userId.optional(),
  uploads: z.array(z.string()).optional(),
});

export const ticketWriteInput = z.looseObject({
  subject: z.string().optional(),
  status: z.enum(TICKET_STATUSES).optional(),
  priority: z.enum(TICKET_PRIORITIES).nullable().optional(),
  type: z.enum(TICKET_TYPES).nullable().optional(),
  tags: tagList.optional(),
  additional_tags: tagList.optional(),
  remove_tags: tagList.optional(),
  assignee_id: userId.nullable().optional(),
  assignee_email: z.string().email().optional(),
  requester_id: userId.optional(),
  requester: z.looseObject({ email: z.string().email(), name: z.string().optional() }).optional(),
  external_id: z.string().nullable().optional(),
  group_id: userId.nullable().optional(),
  organization_id: userId.nullable().optional(),
  comment: commentInput.optional(),
  safe_update: bool.optional(),
  updated_stamp: z.string().optional(),
});

export type TicketWrite = z.infer<typeof ticketWriteInput>;

/** Fields the help desk accepts but this twin does not model; sending a changed value is reported, not silently dropped. */
export const UNMODELED_TICKET_FIELDS = [
  "collaborator_ids",
  "collaborators",
  "additional_collaborators",
  "email_ccs",
  "email_cc_ids",
  "followers",
  "follower_ids",
  "custom_fields",
  "fields",
  "due_at",
  "problem_id",
  "brand_id",
  "ticket_form_id",
  "custom_status_id",
  "recipient",
  "sharing_agreement_ids",
  "macro_ids",
  "via_followup_source_id",
  "metadata",
] as const;

const LABELS: Record<string, string> = {
  status: "Status",
  priority: "Priority",
  type: "Type",
  subject: "Subject",
  tags: "Tags",
  assignee_id: "Assignee",
  group_id: "Group",
  organization_id: "Organization",
  requester_id: "Requester",
  comment: "Comment",
};

function label(field: string): string {
  return LABELS[field] ?? field.charAt(0).toUpperCase() + field.slice(1).replace(/_/g, " ");
}

export function fieldProblem(field: string, message: string, error = "InvalidValue"): Record<string, FieldProblem[]> {
  return { [field]: [{ description: `${label(field)}: ${message}`, error }] };
}

/** The JSON body's object under `key` ({ticket: {...}}, {organization: {...}}...), refused with the help desk's errors. */
export function parseEnvelope(body: string, key: string): Record<string, unknown> {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (e) {
    throw badRequest("InvalidJSON", `The request body is not valid JSON (${(e as Error).message}). Send {"${key}": {...}} with Content-Type: application/json.`);
  }
  const problem = findTreeProblem(json, BODY_MAX_DEPTH);
  if (problem) throw badRequest(problem.kind === "depth" ? "InvalidNesting" : "InvalidParameter", `The request body is refused: ${describeTreeProblem(problem)}.`);
  if (typeof json !== "object" || json === null || Array.isArray(json) || !Object.hasOwn(json, key))
    throw badRequest("ParameterMissing", `param is missing or the value is empty: ${key}`);
  const inner = (json as Record<string, unknown>)[key];
  if (typeof inner !== "object" || inner === null || Array.isArray(inner)) throw badRequest("ParameterMissing", `param is missing or the value is empty: ${key}`);
  return inner as Record<string, unknown>;
}

/** Validates an envelope's object; a failure is RecordInvalid with one entry per field, as the help desk answers. */
export function parseRecord<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const details: Record<string, FieldProblem[]> = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? "base");
    const where = issue.path.length > 1 ? ` (${issue.path.slice(1).join(".")})` : "";
    const message = issue.code === "invalid_value" ? `is not one of ${issue.values.map(String).join(", ")}` : issue.message;
    (details[field] ??= []).push(...fieldProblem(field, `${message}${where}`)[field]);
  }
  throw recordInvalid(details);
}

/** Parses the JSON body of a ticket write: {ticket: {...}}. */
export function parseTicketWrite(body: string): TicketWrite {
  return parseRecord(ticketWriteInput, parseEnvelope(body, "ticket"));
}
