import { describe, expect, it } from "vitest";
import { openConversation, type PersonConversation } from "./schema";
import { personTraceRow } from "./trace";
import { summarizeTraffic } from "../../../pipeline/traffic";

describe("a person's turn in the trace", () => {
  const first: PersonConversation = { ...openConversation("Charged twice."), turns: [{ role: "person", text: "Charged twice." }, { role: "agent", text: "Your order number?" }, { role: "person", text: "A-1042." }] };
  const second: PersonConversation = { ...first, turns: [...first.turns, { role: "agent", text: "Refunded." }, { role: "person", text: "Thanks!" }], done: true };

  it("carries what the agent said and the answer, under the agent's turn number", () => {
    expect(personTraceRow(1, first)).toEqual({ request_id: "person_1", request_body: '{"said":"Your order number?"}', response_body: '{"reply":"A-1042.","done":false}' });
    expect(personTraceRow(3, second)).toEqual({ request_id: "person_2", request_body: '{"said":"Refunded."}', response_body: '{"reply":"Thanks!","done":true}' });
  });

  it("is the same bytes for the same conversation", () => {
    expect(JSON.stringify(personTraceRow(3, second))).toBe(JSON.stringify(personTraceRow(3, structuredClone(second))));
  });

  it("is not counted as traffic to the twins", () => {
    const t = summarizeTraffic([
      { service: "person", method: "POST", path: "/person/v1/respond" },
      { service: "tools", method: "CALL", path: "orders__get" },
      { service: "helpdesk", method: "GET", path: "/api/v2/tickets.json" },
      { service: "stripe", method: "GET", path: "/v1/charges" },
    ]);
    expect(t).toMatchObject({ billing_requests: 1, desk_requests: 1 });
  });
});
