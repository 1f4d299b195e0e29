import { describe, expect, it } from "vitest";
import { holdsArguments, matchCall, normalValue, type Recorded } from "./match";

const rec: Recorded[] = [
  { tool: "orders__get", arguments: { order_id: "A-1001" } },
  { tool: "orders__list", arguments: {} },
  { tool: "charges__list", arguments: { order_id: "A-1001" } },
  { tool: "charges__list", arguments: { order_id: "A-1001", limit: 10 } },
  { tool: "orders__get", arguments: { order_id: "A-1001" } },
  { tool: "search", arguments: { q: "late  Delivery", tags: ["a", "b"] } },
];

describe("matchCall", () => {
  it("exact: the same arguments in any key order, the earliest recording", () => {
    expect(matchCall(rec, "orders__get", { order_id: "A-1001" })).toEqual({ kind: "exact", index: 0 });
    expect(matchCall(rec, "charges__list", { limit: 10, order_id: "A-1001" })).toEqual({ kind: "exact", index: 3 });
    expect(matchCall(rec, "orders__list", {})).toEqual({ kind: "exact", index: 1 });
  });

  it("near: case, surrounding and repeated whitespace, numbers and booleans spelt as text, null as absent", () => {
    expect(matchCall(rec, "orders__get", { order_id: " a-1001 " })).toEqual({ kind: "near", index: 0, ignored: [] });
    expect(matchCall(rec, "charges__list", { order_id: "A-1001", limit: "10" })).toEqual({ kind: "near", index: 3, ignored: [] });
    expect(matchCall(rec, "search", { q: "LATE delivery", tags: ["A", "b"] })).toEqual({ kind: "near", index: 5, ignored: [] });
    expect(matchCall(rec, "orders__get", { order_id: "A-1001", expand: null })).toEqual({ kind: "near", index: 0, ignored: [] });
    expect(matchCall(rec, "orders__list", { status: "" })).toEqual({ kind: "near", index: 1, ignored: [] });
  });

  it("near: extra arguments production did not send, the closest recording (fewest ignored) winning", () => {
    expect(matchCall(rec, "orders__get", { order_id: "A-1001", expand: ["items"] })).toEqual({ kind: "near", index: 0, ignored: ["expand"] });
    // limit 10 conflicts with limit 5: only the recording without a limit is near.
    expect(matchCall(rec, "charges__list", { order_id: "A-1001", limit: 5 })).toEqual({ kind: "near", index: 2, ignored: ["limit"] });
    // Both hold; the one that ignores nothing (limit 10 equal) wins over the one that ignores limit.
    expect(matchCall(rec, "charges__list", { order_id: "a-1001", limit: 10, expand: "x" })).toEqual({ kind: "near", index: 3, ignored: ["expand"] });
  });

  it("unrecorded: another value, a dropped argument, a narrowed unfiltered listing, another tool, list order", () => {
    expect(matchCall(rec, "orders__get", { order_id: "A-1002" })).toEqual({ kind: "unrecorded" });
    expect(matchCall(rec, "orders__get", {})).toEqual({ kind: "unrecorded" });
    expect(matchCall(rec, "orders__list", { status: "open" })).toEqual({ kind: "unrecorded" });
    expect(matchCall(rec, "refunds__get", { order_id: "A-1001" })).toEqual({ kind: "unrecorded" });
    expect(matchCall(rec, "search", { q: "late delivery", tags: ["b", "a"] })).toEqual({ kind: "unrecorded" });
    expect(matchCall(rec, "orders__get", { order_id: "A-10010" })).toEqual({ kind: "unrecorded" });
    expect(matchCall(rec, "charges__list", { order_id: "A-1001", limit: 10.5 })).toMatchObject({ kind: "near", index: 2 });
  });

  it("compares nested values whole, after normalisation", () => {
    const r: Recorded[] = [{ tool: "t", arguments: { filter: { email: "Dana@Example.com", status: null } } }];
    expect(matchCall(r, "t", { filter: { email: "dana@example.com" } })).toEqual({ kind: "near", index: 0, ignored: [] });
    expect(matchCall(r, "t", { filter: { email: "dana@example.com", status: "open" } })).toEqual({ kind: "unrecorded" });
  });
});

describe("normalValue and holdsArguments", () => {
  it("folds text, reads numbers and booleans, drops the empty", () => {
    expect(normalValue("  Hello\n  World ")).toBe("hello world");
    expect(normalValue("ＡＢＣ")).toBe("abc");
    expect(normalValue("-12.50")).toBe(-12.5);
    expect(normalValue("007")).toBe("007");
    expect(normalValue("TRUE")).toBe(true);
    expect(normalValue([])).toBeUndefined();
    expect(normalValue({ a: null, b: "" })).toBeUndefined();
    expect(() => normalValue(JSON.parse("[".repeat(70) + "]".repeat(70)))).toThrow(/deeper than 64/);
  });

  it("holds every wanted entry; an empty want holds for any arguments", () => {
    expect(holdsArguments({ team: "Billing", summary: "x" }, { team: "billing" })).toBe(true);
    expect(holdsArguments({ team: "support" }, { team: "billing" })).toBe(false);
    expect(holdsArguments({ charge_id: "ch_3" }, {})).toBe(true);
  });
});
