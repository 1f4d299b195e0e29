// A world seeded just now builds its base from the rows it wrote the chunks from, not by parsing the chunks
// back: those rows must be exactly what parsing gives, or a fresh world would read differently from one whose
// base came from the cache or from R2.
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { World } from "../../durable-objects/world";
import { Store, type StoredObject } from "../../durable-objects/store/store";
import { SeedBase, type BaseRow } from "../../durable-objects/store/base";
import type { ObjectType } from "../../src/core/world/diff/types";

const rows: Array<{ type: ObjectType; obj: StoredObject; customer: string | null; created: number }> = [
  { type: "customers", obj: { id: "cus_A", name: "Zoë \"Q\" \u2028 \\ </script>", created: 5 }, customer: null, created: 5 },
  { type: "invoices", obj: { id: "in_B", amount: 1.5, nested: { list: [1, null, "x"] } }, customer: "cus_A", created: -0 },
  { type: "charges", obj: { id: "ch_C" }, customer: "cus_A", created: Number.NaN },
  { type: "customers", obj: { id: "cus_D" }, customer: undefined as unknown as null, created: 5 },
];

describe("seed base rows", () => {
  it("are the rows JSON.parse reads back from the chunks, and index the same base", async () => {
    await runInDurableObject(env.WORLD.getByName("w_seed_base_rows"), async (_instance: World, state: DurableObjectState) => {
      const parsed: BaseRow[] = [];
      const chunks = new Store(state.storage.sql).seedChunks(rows, parsed);
      const fromChunks = chunks.flatMap((c) => (JSON.parse(c) as Array<[ObjectType, string, number, number, string | null, string]>).map(([type, id, seq, created, customer, data]) => ({ type, id, seq, created, customer, data })));
      expect(parsed).toStrictEqual(fromChunks);
      expect(Object.is(parsed[1]!.created, 0)).toBe(true);
      const a = new SeedBase(chunks);
      const b = new SeedBase(chunks, parsed);
      expect(b.types()).toStrictEqual(a.types());
      for (const t of a.types()) expect(b.rows(t)).toStrictEqual(a.rows(t));
      expect(b.get("invoices", "in_B")).toStrictEqual(a.get("invoices", "in_B"));
    });
  });
});
