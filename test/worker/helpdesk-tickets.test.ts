import { describe, expect, it } from "vitest";
import type { WorldDiff } from "../../src/core/world/diff/types";
import { adminGet, createWorld, desk, json, ORIGIN } from "./helpdesk-world";

type Ticket = Record<string, unknown> & { id: number; status: string; tags: string[] };

describe("help desk: reading tickets", () => {
  it("shows a ticket in the help desk's shape, with its description as the first comment", async () => {
    const w = await createWorld();
    const res = await desk(w, "GET", "tickets/101.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.headers.get("retry-after")).toBeNull();
    const { ticket } = await json<{ ticket: Ticket }>(res);
    expect(ticket).toMatchObject({
      id: 101,
      url: `${ORIGIN}/api/v2/tickets/101.json`,
      subject: "Refund please",
      raw_subject: "Refund please",
      description: "I was charged twice.",
      status: "open",
      priority: "high",
      requester_id: 2,
      submitter_id: 2,
      assignee_id: null,
      tags: ["billing", "refund"],
      created_at: "2026-09-15T10:00:00Z",
      updated_at: "2026-09-15T10:00:00Z",
      custom_fields: [],
      via: { channel: "email" },
    });
    const comments = await json<{ comments: Array<Record<string, unknown>> }>(await desk(w, "GET", "tickets/101/comments.json"));
    expect(comments.comments).toHaveLength(1);
    expect(comments.comments[0]).toMatchObject({ type: "Comment", author_id: 2, body: "I was charged twice.", public: true, created_at: "2026-09-15T10:00:00Z" });
    expect(comments.comments[0].html_body).toContain("<p dir=\"auto\">I was charged twice.</p>");
    expect(comments.comments[0]).not.toHaveProperty("ticket_id");
  });

  it("accepts paths without the .json suffix", async () => {
    const w = await createWorld();
    const { ticket } = await json<{ ticket: Ticket }>(await desk(w, "GET", "tickets/102"));
    expect(ticket.id).toBe(102);
    expect((await desk(w, "GET", "tickets")).status).toBe(200);
  });

  it("creates requester users from email and lists seeded comments oldest first, private notes included", async () => {
    const w = await createWorld();
    const { ticket } = await json<{ ticket: Ticket }>(await desk(w, "GET", "tickets/104.json"));
    const { user } = await json<{ user: Record<string, unknown> }>(await desk(w, "GET", `users/${ticket.requester_id}.json`));
    expect(user).toMatchObject({ email: "new.person@example.com", role: "end-user", name: "new.person@example.com" });
    const { comments } = await json<{ comments: Array<Record<string, unknown>> }>(await desk(w, "GET", "tickets/104/comments.json"));
    expect(comments.map((c) => c.body)).toEqual(["Why is my invoice higher?", "Let me check.", "Internal: looks like proration."]);
    expect(comments.map((c) => c.public)).toEqual([true, true, false]);
    const desc = await json<{ comments: Array<Record<string, unknown>> }>(await desk(w, "GET", "tickets/104/comments.json?sort_order=desc"));
    expect(desc.comments.map((c) => c.body)).toEqual(["Internal: looks like proration.", "Let me check.", "Why is my invoice higher?"]);
  });

  it("answers RecordNotFound for a missing ticket", async () => {
    const w = await createWorld();
    for (const path of ["tickets/999.json", "tickets/999/comments.json", "users/999.json"]) {
      const res = await desk(w, "GET", path);
      expect(res.status, path).toBe(404);
      expect(await res.json()).toEqual({ error: "RecordNotFound", description: "Not found" });
    }
  });

  it("answers unknown routes with 404 and notes them in the trace", async () => {
    const w = await createWorld();
    const res = await desk(w, "GET", "brands.json");
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: "InvalidEndpoint" });
    expect((await desk(w, "PATCH", "tickets/101.json")).status).toBe(404);
    const trace = await adminGet<Array<{ path: string; note: string | null; status: number }>>(`/admin/worlds/${w.id}/trace`);
    expect(trace.map((t) => t.note)).toEqual(["unknown_route", "unknown_route"]);
  });

  it("serves show_many", async () => {
    const w = await createWorld();
    const body = await json<{ tickets: Ticket[] }>(await desk(w, "GET", "tickets/show_many.json?ids=105,101,999"));
    expect(body.tickets.map((t) => t.id)).toEqual([105, 101]);
  });
});

describe("help desk: updating tickets", () => {
  it("adds a public reply and solves, returning the ticket and an audit with Comment and Change events", async () => {
    const w = await createWorld();
    const res = await desk(w, "PUT", "tickets/101.json", { ticket: { comment: { body: "Refunded the duplicate.\n\nSorry!", public: true }, status: "solved" } });
    expect(res.status).toBe(200);
    const body = await json<{ ticket: Ticket; audit: { id: number; ticket_id: number; author_id: number; events: Array<Record<string, unknown>> } }>(res);
    expect(body.ticket).toMatchObject({ id: 101, status: "solved", assignee_id: 1, updated_at: "2026-09-15T12:00:00Z" });
    expect(body.audit).toMatchObject({ ticket_id: 101, author_id: 1, created_at: "2026-09-15T12:00:00Z", via: { channel: "api" } });
    const [comment, ...changes] = body.audit.events;
    expect(comment).toMatchObject({ type: "Comment", body: "Refunded the duplicate.\n\nSorry!", public: true, author_id: 1, audit_id: body.audit.id });
    expect(comment.html_body).toBe('<div class="zd-comment" dir="auto"><p dir="auto">Refunded the duplicate.</p><p dir="auto">Sorry!</p></div>');
    expect(changes).toEqual([
      { id: expect.any(Number), type: "Change", field_name: "status", value: "solved", previous_value: "open" },
      { id: expect.any(Number), type: "Change", field_name: "assignee_id", value: "1", previous_value: null },
    ]);
    const { comments } = await json<{ comments: Array<Record<string, unknown>> }>(await desk(w, "GET", "tickets/101/comments.json"));
    expect(comments).toHaveLength(2);
    expect(comments[1]).toMatchObject({ id: comment.id, body: "Refunded the duplicate.\n\nSorry!", created_at: "2026-09-15T12:00:00Z", audit_id: body.audit.id });

    const diff = await adminGet<WorldDiff>(`/admin/worlds/${w.id}/diff`);
    const ticketEntry = diff.entries.find((e) => e.type === "tickets");
    expect(ticketEntry).toMatchObject({ id: "101", op: "updated", customer: "cus_C" });
    expect(ticketEntry?.fields).toEqual({
      status: { before: "open", after: "solved" },
      assignee_id: { before: null, after: 1 },
      updated_at: { before: "2026-09-15T10:00:00Z", after: "2026-09-15T12:00:00Z" },
    });
    const commentEntry = diff.entries.find((e) => e.type === "ticket_comments");
    expect(commentEntry).toMatchObject({ id: String(comment.id), op: "created", customer: "cus_C", after: { ticket_id: 101, public: true, body: "Refunded the duplicate.\n\nSorry!" } });
    expect(diff.counts).toEqual({ created: { ticket_comments: 1 }, updated: { tickets: 1 }, deleted: {} });
  });

  it("keeps internal notes private and moves a new ticket to open when an agent touches it", async () => {
    const w = await createWorld();
    const res = await desk(w, "PUT", "tickets/102", { ticket: { comment: { body: "Checking with billing", public: false } } });
    const body = await json<{ ticket: Ticket; audit: { events: Array<Record<string, unknown>> } }>(res);
    expect(body.ticket.status).toBe("open");
    expect(body.audit.events.map((e) => e.type)).toEqual(["Comment", "Change"]);
    expect(body.audit.events[0].public).toBe(false);
    const diff = await adminGet<WorldDiff>(`/admin/worlds/${w.id}/diff`);
    // The shared billing email belongs to two customers: the first by id is the ticket's.
    expect(diff.entries.map((e) => [e.type, e.customer])).toEqual([
      ["ticket_comments", "cus_A"],
      ["tickets", "cus_A"],
    ]);
  });

  it("sets priority, tags, additional_tags and remove_tags with Change events", async () => {
    const w = await createWorld();
    const a = await json<{ ticket: Ticket; audit: { events: Array<Record<string, unknown>> } }>(
      await desk(w, "PUT", "tickets/101.json", { ticket: { priority: "urgent", additional_tags: ["vip", "billing"], remove_tags: ["refund"] } }),
    );
    expect(a.ticket.tags).toEqual(["billing", "vip"]);
    expect(a.audit.events).toContainEqual(expect.objectContaining({ field_name: "tags", value: ["billing", "vip"], previous_value: ["billing", "refund"] }));
    expect(a.audit.events).toContainEqual(expect.objectContaining({ field_name: "priority", value: "urgent", previous_value: "high" }));
    const b = await json<{ ticket: Ticket }>(await desk(w, "PUT", "tickets/101.json", { ticket: { tags: "one two" } }));
    expect(b.ticket.tags).toEqual(["one", "two"]);
  });

  it("refuses any update to a closed ticket with the help desk's 422", async () => {
    const w = await createWorld();
    const res = await desk(w, "PUT", "tickets/103.json", { ticket: { comment: { body: "reopen?" }, status: "open" } });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      error: "RecordInvalid",
      description: "Record validation errors",
      details: { status: [{ description: "Status: closed prevents ticket update", error: "ClosedTicket" }] },
    });
    const diff = await adminGet<WorldDiff>(`/admin/worlds/${w.id}/diff`);
    expect(diff.entries).toEqual([]);
  });

  it("validates the body: malformed JSON 400, missing ticket 400, bad values 422 naming the field", async () => {
    const w = await createWorld();
    const bad = await desk(w, "PUT", "tickets/101.json", "{ticket:");
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: "InvalidJSON" });
    const missing = await desk(w, "PUT", "tickets/101.json", { status: "solved" });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ error: "ParameterMissing", description: "param is missing or the value is empty: ticket" });
    const status = await desk(w, "PUT", "tickets/101.json", { ticket: { status: "done" } });
    expect(status.status).toBe(422);
    const sb = await json<{ error: string; details: Record<string, Array<{ description: string }>> }>(status);
    expect(sb.error).toBe("RecordInvalid");
    expect(sb.details.status[0].description).toMatch(/^Status: /);
    const blank = await desk(w, "PUT", "tickets/101.json", { ticket: { comment: { body: "  " } } });
    expect(blank.status).toBe(422);
    const back = await desk(w, "PUT", "tickets/101.json", { ticket: { status: "new" } });
    expect(back.status).toBe(422);
    const missingTicket = await desk(w, "PUT", "tickets/999.json", { ticket: { status: "open" } });
    expect(missingTicket.status).toBe(404);
    expect((await adminGet<WorldDiff>(`/admin/worlds/${w.id}/diff`)).entries).toEqual([]);
  });

  it("refuses a safe update made against stale data with 409", async () => {
    const w = await createWorld();
    const res = await desk(w, "PUT", "tickets/101.json", { ticket: { status: "pending", safe_update: true, updated_stamp: "2026-01-01T00:00:00Z" } });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ error: "UpdateConflict" });
    const ok = await desk(w, "PUT", "tickets/101.json", { ticket: { status: "pending", safe_update: true, updated_stamp: "2026-09-15T10:00:00Z" } });
    expect(ok.status).toBe(200);
  });

  it("accepts echoed read-only fields silently but notes changed fields it does not model", async () => {
    const w = await createWorld();
    const { ticket } = await json<{ ticket: Ticket }>(await desk(w, "GET", "tickets/101.json"));
    const echo = await desk(w, "PUT", "tickets/101.json", { ticket: { ...ticket, status: "pending" } });
    expect(echo.status).toBe(200);
    await desk(w, "PUT", "tickets/101.json", { ticket: { due_at: "2026-10-01T00:00:00Z" } });
    const trace = await adminGet<Array<{ note: string | null }>>(`/admin/worlds/${w.id}/trace`);
    expect(trace.map((t) => t.note)).toEqual([null, null, "unknown_parameter"]);
  });

  it("creates a ticket for a requester by email, attributed to their billing customer", async () => {
    const w = await createWorld();
    const res = await desk(w, "POST", "tickets.json", { ticket: { subject: "Follow-up", comment: { body: "Following up on 103." }, requester: { email: "jane@jane.example.com" }, tags: ["followup"] } });
    expect(res.status).toBe(201);
    const body = await json<{ ticket: Ticket; audit: { events: Array<Record<string, unknown>> } }>(res);
    expect(body.ticket).toMatchObject({ id: 106, subject: "Follow-up", description: "Following up on 103.", requester_id: 2, submitter_id: 1, status: "new", tags: ["followup"] });
    expect(body.audit.events.map((e) => [e.type, e.field_name])).toEqual([
      ["Comment", undefined],
      ["Create", "subject"],
      ["Create", "status"],
      ["Create", "tags"],
      ["Create", "requester_id"],
    ]);
    const diff = await adminGet<WorldDiff>(`/admin/worlds/${w.id}/diff`);
    expect(diff.entries.map((e) => [e.type, e.op, e.customer])).toEqual([
      ["tickets", "created", "cus_C"],
      ["ticket_comments", "created", "cus_C"],
    ]);
  });

  it("accepts the email/token basic credentials help desk clients send", async () => {
    const w = await createWorld();
    const basic = btoa(`ada@acme.example.com/token:${w.key}`);
    const res = await desk(w, "GET", "users/me.json", undefined, { authorization: `Basic ${basic}` });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { user: { id: number } }).user.id).toBe(1);
    const wrong = await desk(w, "GET", "users/me.json", undefined, { authorization: `Basic ${btoa("ada@acme.example.com/token:sk_test_nope")}` });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ error: "Couldn't authenticate you" });
  });
});

describe("help desk: determinism", () => {
  it("gives the same diff, byte for byte apart from world and request ids, for the same seed and the same writes", async () => {
    const run = async () => {
      const w = await createWorld();
      await desk(w, "PUT", "tickets/101.json", { ticket: { comment: { body: "On it" }, status: "pending", additional_tags: ["vip"] } });
      await desk(w, "POST", "tickets.json", { ticket: { comment: { body: "New one" }, requester: { email: "x@example.com", name: "X" } } });
      const diff = await adminGet<WorldDiff>(`/admin/worlds/${w.id}/diff`);
      return JSON.stringify({ ...diff, world: "", entries: diff.entries.map((e) => ({ ...e, request_ids: e.request_ids.length })) });
    };
    const [a, b] = [await run(), await run()];
    expect(a).toBe(b);
    expect(JSON.parse(a).counts).toEqual({ created: { ticket_comments: 2, users: 1, tickets: 1 }, updated: { tickets: 1 }, deleted: {} });
  });
});
