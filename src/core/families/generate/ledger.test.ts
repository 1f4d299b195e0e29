import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../util/canonical";
import { generateLedger, LedgerError } from "./ledger";

const story = {
  tools: ["get_order", "refund_order"],
  deliveries: [
    { call: { name: "get_order", arguments: { order_id: "QH4821" } }, path: "status", value: "delivered" },
    { call: { name: "get_order", arguments: { order_id: "QH4821" } }, path: "total", value: 49 },
    { call: { name: "get_order", arguments: { order_id: "QH4907" } }, path: "status", value: "in_transit" },
  ],
};

describe("tool-ledger", () => {
  it("keeps the story first and adds records shaped like it, never reusing a story key; same input, same bytes", () => {
    const a = generateLedger(structuredClone(story), { prng_seed: 7, records: 50 });
    const b = generateLedger(structuredClone(story), { prng_seed: 7, records: 50 });
    expect(canonicalJson(a)).toBe(canonicalJson(b));
    const d = a.deliveries as { call: { arguments: { order_id: string } }; path: string; value: unknown }[];
    expect(d.slice(0, 3)).toEqual(story.deliveries);
    const generated = d.slice(3);
    expect(generated).toHaveLength(100); // two fields (status, total) of the first story record, per generated record
    const keys = [...new Set(generated.map((x) => x.call.arguments.order_id))];
    expect(keys).toHaveLength(50);
    for (const k of keys) expect(k).toMatch(/^[A-Z]{2}\d{4}$/);
    expect(keys).not.toContain("QH4821");
    expect(keys).not.toContain("QH4907");
    for (const x of generated.filter((g) => g.path === "status")) expect(["delivered", "in_transit"]).toContain(x.value);
    for (const x of generated.filter((g) => g.path === "total")) expect(Number.isInteger(x.value)).toBe(true);
    expect(canonicalJson(generateLedger(structuredClone(story), { prng_seed: 8, records: 50 }))).not.toBe(canonicalJson(a));
  });

  it("needs a story record to grow from", () => {
    expect(() => generateLedger({ tools: ["x"], deliveries: [] }, { prng_seed: 1, records: 5 })).toThrow(LedgerError);
  });
});
