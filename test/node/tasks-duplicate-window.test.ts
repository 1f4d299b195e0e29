// 'on duplicate' means a double charge, not a subscription's monthly charges that happen to share an amount.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compileTasks } from "../../src/core/kinds/account/tasks/index";
import { ROOT } from "./helpers/cli";

const seed = JSON.parse(readFileSync(join(ROOT, "seeds", "acme-small.json"), "utf8"));
const file = (expected: string) =>
  ["version: 1", "seed: acme-small", "tasks:", "  - id: D1", "    requester: billing.northwind@example.com", "    subject: Charged twice", "    body: Please refund the extra payment.", `    expected: ${expected}`].join("\n");

describe("on duplicate", () => {
  it("keys only the pair charged days apart, not last month's charge of the same amount", async () => {
    // Northwind pays $99.00 monthly (3 Aug, 3 Sep) and was charged a second $99.00 minutes after 3 Sep.
    const r = await compileTasks({ text: file("refund $99.00 on duplicate"), fileName: "tasks.yaml", seed });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.rubric.tickets[0].expect?.target_any).toEqual(["ch_AcmeNorthwind0903", "ch_AcmeNorthwindDup"]);
  });

  it("finds no duplicate in monthly charges alone", async () => {
    const text = file("refund $99.00 on duplicate").replace("billing.northwind@example.com", "accounts.delta@example.com");
    const r = await compileTasks({ text, fileName: "tasks.yaml", seed });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems[0].message).toContain("no two unrefunded charges of $99.00 of the same amount within 3 days");
  });
});
