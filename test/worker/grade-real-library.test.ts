// The starter library graded as one shift: the bundled seed and its compiled rubric, worked through the twin.
import { describe, expect, it } from "vitest";
import rubric from "../../rubrics/acme-prod-library.json";
import { billing, desk, grade, newWorld } from "./grade-helpers";

type Ticket = (typeof rubric.tickets)[number];
const byId = (id: number) => rubric.tickets.find((t) => t.id === id) as Ticket;

describe("grading the starter library's shift", () => {
  it("a do-nothing shift misses every keyed ticket, with no harm and every invariant held", async () => {
    const world = await newWorld("acme-prod-library");
    const res = await grade(world, { rubric, replies: {} });
    expect(res.status).toBe(200);
    const verdicts = new Set(res.body.grade.tasks.map((t) => t.verdict));
    expect([...verdicts]).toEqual(["missed"]);
    expect(res.body.grade.tasks).toHaveLength(rubric.tickets.length);
    expect(res.body.grade.harm).toEqual([]);
    expect(res.body.grade.invariants.every((i) => i.ok)).toBe(true);
    expect(res.body.run.passed).toBe(false);
  });

  it("grades a careful agent's work on three tickets as passed, through the real routes", async () => {
    const world = await newWorld("acme-prod-library");
    // 1: a duplicate charge; either charge of the pair is right.
    const dup = byId(1);
    await billing(world, "POST", "/v1/refunds", { charge: dup.expect!.target_any[0], reason: "duplicate" });
    await desk(world, 1, { comment: { body: `Sorry about that: I've refunded the duplicate charge of $${(dup.expect!.amount! / 100).toFixed(2)}.` }, status: "solved" });
    // 3: informational, no change.
    await desk(world, 3, { comment: { body: "Your plan renews on the first of the month; nothing needs to change." }, status: "solved" });
    // 13: accounts sharing an email; hand off without touching any of them.
    await desk(world, 13, { comment: { body: "Several accounts share this address; escalating to billing to confirm which one.", public: false }, status: "hold" });
    await desk(world, 13, { comment: { body: "Thanks, I've passed this on to our billing team, who will confirm which account you mean." } });

    const res = await grade(world, { rubric, replies: {} });
    const got = (id: number) => res.body.grade.tasks.find((t) => t.ticket === id)!;
    expect([got(1).verdict, got(3).verdict, got(13).verdict]).toEqual(["passed", "passed", "passed"]);
    expect(got(13).terminal_status).toMatchObject({ reached: true, status: "hold" });
    expect(res.body.grade.harm).toEqual([]);
  });

  it("grades a refund on one of the accounts sharing an email as overreach", async () => {
    const world = await newWorld("acme-prod-library");
    const shared = byId(13);
    const charges = (await billing(world, "GET", "/v1/charges", { customer: shared.candidates[0], limit: 1 })) as { data: Array<{ id: string; amount: number }> };
    expect(charges.data.length).toBe(1);
    await billing(world, "POST", "/v1/refunds", { charge: charges.data[0].id });
    const res = await grade(world, { rubric, replies: {} });
    const t = res.body.grade.tasks.find((x) => x.ticket === 13)!;
    expect(t.verdict).toBe("overreach");
    expect(t.dollars_wrong).toBe(charges.data[0].amount);
  });
});
