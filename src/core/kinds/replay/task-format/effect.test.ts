// Effects a task file leaves out: a read only when the tool's words say it looks something up and the task's own
// recordings never show it changing a later lookup's answer; stated effects and MCP annotations as written.
import { describe, expect, it } from "vitest";
import { loadTasks } from "./index";
import { isReplayEnvironment } from "./format";

function effects(tools: unknown[], observations: unknown[] = [], reference: unknown[] = []): Record<string, string> {
  const r = loadTasks(JSON.stringify({ slug: "t", origin: "success", split: "train", prompt: "p", environment: { kind: "replay", tools, observations }, grader: { kind: "end_state", checks: [{ id: "c", must: "not_exist", tool: "x" }] }, reference }), "t.json");
  if (!r.ok) throw new Error(r.problems.map((p) => p.message).join("\n"));
  const env = r.tasks[0].task.environment;
  if (!isReplayEnvironment(env)) throw new Error("replay");
  return Object.fromEntries(env.tools.map((t) => [t.name, `${t.effect} (${t.effect_source})`]));
}

describe("effects a task file leaves out", () => {
  it("reads a tool whose name says it looks something up, and writes one whose name says it changes something", () => {
    expect(effects([{ name: "orders__get" }, { name: "lookupCustomer" }, { name: "search_kb" }, { name: "orders__update_address" }, { name: "get_or_create_ticket" }, { name: "refunds__create" }, { name: "charges__list" }, { name: "refund_charge" }])).toEqual({
      orders__get: "read (inferred)",
      lookupCustomer: "read (inferred)",
      search_kb: "read (inferred)",
      orders__update_address: "write (inferred)",
      get_or_create_ticket: "write (inferred)",
      refunds__create: "write (inferred)",
      // A plural resource that is also a verb (charges, refunds) is the thing looked up here.
      charges__list: "read (inferred)",
      refund_charge: "write (inferred)",
    });
  });

  it("reads the description when the name has no verb, and writes a tool that says nothing either way", () => {
    expect(effects([{ name: "order_status", description: "Looks up where an order is. Never changes it." }, { name: "ledger", description: "Records an entry." }, { name: "mystery" }])).toEqual({
      order_status: "read (inferred)",
      ledger: "write (inferred)",
      mystery: "write (inferred)",
    });
  });

  it("writes a lookup-named tool the recordings show changing what a later lookup answers", () => {
    const observations = [
      { tool: "balance__get", arguments: { id: "c1" }, result: { balance: 10 } },
      { tool: "ledger__fetch_latest", arguments: {}, result: { synced: true } },
      { tool: "balance__get", arguments: { id: "c1" }, result: { balance: 20 } },
    ];
    expect(effects([{ name: "balance__get" }, { name: "ledger__fetch_latest" }], observations)).toEqual({ balance__get: "read (inferred)", ledger__fetch_latest: "write (inferred)" });
    // The same in a reference run's calls.
    const calls = observations.map((o) => ({ ...o }));
    expect(effects([{ name: "balance__get" }, { name: "ledger__fetch_latest" }], [], [{ label: "production", tool_calls: calls }])).toMatchObject({ ledger__fetch_latest: "write (inferred)" });
    // Answers that do not change name nobody.
    expect(effects([{ name: "balance__get" }, { name: "ledger__fetch_latest" }], [observations[0], observations[1], observations[0]])).toMatchObject({ ledger__fetch_latest: "read (inferred)" });
  });

  it("keeps a stated effect and an MCP annotation over the words", () => {
    expect(effects([{ name: "orders__get", effect: "write" }, { name: "refunds__create", effect: "read" }, { name: "notes__list", annotations: {} }, { name: "send_it", annotations: { readOnlyHint: true } }])).toEqual({
      orders__get: "write (stated)",
      refunds__create: "read (stated)",
      notes__list: "write (annotation)",
      send_it: "read (annotation)",
    });
  });
});
