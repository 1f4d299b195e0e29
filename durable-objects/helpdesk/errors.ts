// The help desk's error envelopes, as Zendesk clients parse them: most errors are {error, description};
// validation failures are RecordInvalid with per-field details; a few endpoints (search) use
// {error: {title, message}}.
import type { TwinNote } from "../twin";

export interface FieldProblem {
  description: string;
  error: string;
}

export class HelpdeskError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    readonly note: TwinNote = null,
  ) {
    super(typeof body.description === "string" ? body.description : `help desk error ${status}`);
  }
}

export function recordNotFound(): HelpdeskError {
  return new HelpdeskError(404, { error: "RecordNotFound", description: "Not found" });
}

export function unknownRoute(): HelpdeskError {
  return new HelpdeskError(404, { error: "InvalidEndpoint", description: "Not found" }, "unknown_route");
}

export function recordInvalid(details: Record<string, FieldProblem[]>): HelpdeskError {
  return new HelpdeskError(422, { error: "RecordInvalid", description: "Record validation errors", details });
}

export function badRequest(error: string, description: string): HelpdeskError {
  return new HelpdeskError(400, { error, description });
}

/** The {error: {title, message}} form the search endpoint answers with. */
export function invalidAttribute(status: number, message: string): HelpdeskError {
  return new HelpdeskError(status, { error: { title: "Invalid attribute", message } });
}
