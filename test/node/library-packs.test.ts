// The starter packs compile with the real tasks compiler, and each compiled ticket is the library rubric's key
// for the same ticket, decoy for decoy: a pack grades a ticket exactly as the full library does.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import type { RubricTicket } from "../../src/core/rubric/schema";
import { compileTasks, formatProblem } from "../../src/core/kinds/account/tasks";

const root = join(import.meta.dirname, "..", "..");
const PACKS = ["refunds", "credits", "cancellations", "plan-changes", "invoices"];
const seed = JSON.parse(readFileSync(join(root, "seeds/acme-prod-library.json"), "utf8"));
const library: RubricTicket[] = JSON.parse(readFileSync(join(root, "rubrics/acme-prod-library.json"), "utf8")).tickets;
const byLabel = new Map(library.map((t) => [t.label, t]));

const withoutPosition = (t: RubricTicket) => ({ ...t, id: 0 });
const packText = (pack: string) => readFileSync(join(root, "packs", `${pack}.yaml`), "utf8");
const packTasks = (pack: string): Array<{ id: string; trap_class: string; expected: string; decoys?: string[] }> => parse(packText(pack)).tasks;

describe("starter packs", () => {
  for (const pack of PACKS) {
    it(`${pack}.yaml compiles to the library's keys`, async () => {
      const result = await compileTasks({ text: packText(pack), fileName: `packs/${pack}.yaml`, seed });
      if (!result.ok) throw new Error(result.problems.map(formatProblem).join("\n"));
      expect(result.rubric.mode).toBe("isolated");
      expect(result.rubric.budget).toBeNull();
      expect(result.rubric.invariants).toEqual(["deleted.customers==0", "created.subscriptions==0"]);
      expect(result.rubric.tickets.length).toBeGreaterThan(10);
      for (const t of result.rubric.tickets) {
        const key = byLabel.get(t.label);
        expect(key, t.label).toBeDefined();
        expect(withoutPosition(t), t.label).toEqual(withoutPosition(key!));
      }
      // the compiled desk holds the pack's tasks, not the library's inbox
      expect(result.seed.data.tickets.map((t) => t.external_id)).toEqual(result.rubric.tickets.map((t) => t.label));
    });
  }

  it("every pack carries the shared-email and embedded-instruction tickets; none carries a collision", () => {
    const carried = library.filter((t) => t.trap_class === "shared-email" || t.trap_class === "embedded-instruction").map((t) => t.label);
    expect(carried.length).toBeGreaterThanOrEqual(10);
    for (const pack of PACKS) {
      const tasks = packTasks(pack);
      const ids = tasks.map((t) => t.id);
      for (const label of carried) expect(ids, `${pack} ${label}`).toContain(label);
      expect(tasks.filter((t) => t.trap_class === "collision")).toEqual([]);
      expect(new Set(ids).size).toBe(ids.length);
    }
  });

  it("every library ticket but the collisions is in some pack, under the authority it tests", () => {
    const inPack = new Map<string, string[]>();
    for (const pack of PACKS) for (const t of packTasks(pack)) inPack.set(t.id, [...(inPack.get(t.id) ?? []), pack]);
    for (const t of library) {
      if (t.trap_class === "collision") expect(inPack.has(t.label), t.label).toBe(false);
      else expect(inPack.has(t.label), t.label).toBe(true);
    }
    const home: Record<string, string> = {
      "duplicate-charge": "refunds",
      "partial-refund": "refunds",
      "outside-window": "refunds",
      "already-refunded": "refunds",
      "credit-limit": "credits",
      "cancel-timing": "cancellations",
      "downgrade-timing": "plan-changes",
      "void-vs-credit-note": "invoices",
    };
    for (const t of library) if (home[t.trap_class!]) expect(inPack.get(t.label), t.label).toContain(home[t.trap_class!]);
  });

  it("the wrong-entity cases name their decoys by email, and the decoys resolve to other accounts", () => {
    for (const pack of PACKS) {
      for (const t of packTasks(pack).filter((x) => x.trap_class === "wrong-entity")) {
        expect(t.decoys?.length, t.id).toBeGreaterThan(0);
        expect(byLabel.get(t.id)!.decoys.length).toBe(t.decoys!.length);
      }
    }
  });
});
