import { describe, expect, it } from "vitest";
import { MAX_TRACE_STEPS, scrub, traceSteps, type TraceRow } from "./trace";

const row = (seq: number, over: Partial<TraceRow> = {}): TraceRow => ({ seq, request_id: `req_${seq}`, service: "stripe", method: "GET", path: "/v1/charges", query: "", request_body: "", status: 200, response_body: "{}", ...over });

describe("traceSteps", () => {
  it("names each call's surface, target, arguments that matter first, and a one-line answer", () => {
    const t = traceSteps(
      [
        row(1, { method: "POST", path: "/v1/refunds", request_body: "metadata[note]=dup&charge=ch_2&amount=24300", response_body: JSON.stringify({ id: "re_1", object: "refund", amount: 24300, status: "succeeded" }) }),
        row(2, { service: "helpdesk", method: "PUT", path: "/api/v2/tickets/1.json", request_body: JSON.stringify({ ticket: { status: "solved", comment: { body: "Done" } } }), response_body: JSON.stringify({ ticket: { id: 1, status: "solved" } }) }),
        row(3, { service: "tools", method: "CALL", path: "lookup_order", query: "via=mcp", request_body: JSON.stringify({ order_id: "o_1" }), response_body: JSON.stringify({ status: "shipped" }) }),
        row(4, { service: "tools", method: "CALL", path: "refund", query: "via=json", request_body: "{}", status: 400, response_body: JSON.stringify({ error: "invalid_arguments", description: "amount is required" }) }),
        row(5, { service: "person", method: "POST", path: "/person/v1/respond", request_body: JSON.stringify({ said: "Which order?" }), response_body: JSON.stringify({ reply: "The blue one.", done: false }) }),
        row(6, { query: "customer=cus_1&limit=3", response_body: JSON.stringify({ object: "list", data: [{}, {}], has_more: true }) }),
      ],
      null,
    );
    expect(t.total).toBe(6);
    expect(t.steps.map((s) => [s.surface, s.method, s.target, s.args, s.status, s.answer])).toEqual([
      ["billing", "POST", "/v1/refunds", "charge=ch_2 amount=24300 metadata[note]=dup", 200, "refund re_1 amount=24300 status=succeeded"],
      ["desk", "PUT", "/api/v2/tickets/1.json", "ticket.status=solved ticket.comment.body=Done", 200, "ticket 1 status=solved"],
      ["mcp", "CALL", "lookup_order", "order_id=o_1", 200, "status=shipped"],
      ["tool", "CALL", "refund", "", 400, "error: invalid_arguments (amount is required)"],
      ["person", "SAY", "/person/v1/respond", '"Which order?"', 200, '"The blue one."'],
      ["billing", "GET", "/v1/charges", "customer=cus_1 limit=3", 200, "list of 2, more"],
    ]);
  });

  it("links each call to the diff entries its request made, a tool call to its twin requests' too", () => {
    const t = traceSteps(
      [row(1, { request_id: "call_1.1", method: "POST", path: "/v1/refunds" }), row(2, { request_id: "call_1", service: "tools", method: "CALL", path: "refund", query: "via=mcp" }), row(3)],
      { entries: [{ type: "refunds", id: "re_1", op: "created", customer: "cus_1", before: null, after: {}, request_ids: ["call_1.1"] }] },
    );
    expect(t.steps.map((s) => [s.changes, s.within])).toEqual([[["created refunds re_1"], 2], [["created refunds re_1"], null], [[], null]]);
  });

  it("scrubs keys and tokens from arguments and answers", () => {
    const t = traceSteps([row(1, { method: "POST", request_body: "api_key=abc123secretvalue&customer=cus_1", response_body: JSON.stringify({ error: { message: "bad key sk_test_51HxYzAbCdEfGh" } }) })], null);
    expect(t.steps[0].args).toBe("customer=cus_1 api_key=…");
    expect(t.steps[0].answer).toBe("error: bad key sk_…");
    expect(scrub("Authorization: Bearer abcdefghijklmnop")).not.toMatch(/abcdefghijkl/);
    expect(scrub('{"token":"tok_123456789"}')).toBe('{"token":"…"}');
  });

  it("bounds a long trace, keeping the calls that changed something or were refused", () => {
    const rows = Array.from({ length: MAX_TRACE_STEPS + 50 }, (_, i) => row(i + 1, i === MAX_TRACE_STEPS + 40 ? { status: 402 } : {}));
    const t = traceSteps(rows, { entries: [{ type: "refunds", id: "re_1", op: "created", customer: null, before: null, after: {}, request_ids: [`req_${MAX_TRACE_STEPS + 45}`] }] });
    expect(t.total).toBe(MAX_TRACE_STEPS + 50);
    expect(t.steps).toHaveLength(MAX_TRACE_STEPS);
    expect(t.steps.map((s) => s.seq)).toContain(MAX_TRACE_STEPS + 41);
    expect(t.steps.map((s) => s.seq)).toContain(MAX_TRACE_STEPS + 45);
    expect(t.steps.map((s) => s.seq)).toEqual([...t.steps.map((s) => s.seq)].sort((a, b) => a - b));
    const long = traceSteps([row(1, { request_body: `note=${"x".repeat(5000)}`, response_body: "y".repeat(5000) })], null);
    expect(long.steps[0].args.length).toBeLessThanOrEqual(200);
    expect(long.steps[0].answer.length).toBeLessThanOrEqual(160);
  });
});
