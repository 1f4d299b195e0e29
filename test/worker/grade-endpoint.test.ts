import { describe, expect, it } from "vitest";
import { billing, call, grade, gradeRubric, newWorld, storeRubric } from "./grade-helpers";

describe("POST /admin/worlds/:id/grade", () => {
  it("needs the server token", async () => {
    const res = await call("/admin/worlds/w_AAAAAAAAAAAAAAAA/grade", { method: "POST", body: "{}" });
    expect(res.status).toBe(401);
  });

  it("grades a world against an inline rubric and the replies given", async () => {
    const world = await newWorld();
    await billing(world, "POST", "/v1/refunds", { charge: "ch_AliceDup2" });
    const res = await grade(world, { rubric: gradeRubric(), replies: { "1": "I've refunded the duplicate $243.00 charge." } });
    expect(res.status).toBe(200);
    expect(res.body.mode).toBe("isolated");
    expect(res.body.grade.tasks.map((t) => [t.ticket, t.label, t.verdict])).toEqual([[1, "ZD-1041", "passed"]]);
    expect(res.body.run.passed).toBe(true);
    expect(res.body.warnings[0]).toMatch(/the rubric was built for seed grade-test/);
  });

  it("loads a rubric stored in R2 by its hash", async () => {
    const world = await newWorld();
    const hash = "ab".repeat(32);
    await storeRubric(hash, gradeRubric());
    const res = await grade(world, { rubric: { hash }, replies: { "ZD-1042": "" } });
    expect(res.status).toBe(200);
    expect(res.body.grade.tasks.map((t) => [t.ticket, t.verdict])).toEqual([[2, "missed"]]);
  });

  it("answers 404 for a hash with no stored rubric, naming the key it looked for", async () => {
    const world = await newWorld();
    const res = await grade(world, { rubric: { hash: "cd".repeat(32) }, replies: {} });
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: "rubric_not_found" });
    expect(res.body.error?.message).toContain(`rubrics/${"cd".repeat(32)}.json`);
  });

  it("refuses a rubric that does not match the schema, naming the path", async () => {
    const world = await newWorld();
    const rubric = gradeRubric();
    (rubric.tickets[0] as Record<string, unknown>).colour = "red";
    const res = await grade(world, { rubric, replies: {} });
    expect(res.status).toBe(400);
    expect(res.body.error?.issues).toContainEqual({ path: "rubric.tickets[0].colour", message: "unknown field" });
  });

  it("refuses a rubric whose invariant does not parse", async () => {
    const world = await newWorld();
    const res = await grade(world, { rubric: gradeRubric({ invariants: ["created.subscriptions=0"] }), replies: {} });
    expect(res.status).toBe(400);
    expect(res.body.error?.issues?.[0].path).toBe("rubric.invariants[0]");
  });

  it("answers 404 for an unknown world and 400 for an unknown ticket", async () => {
    expect((await grade({ id: "w_AAAAAAAAAAAAAAAA", key: "" }, { rubric: gradeRubric(), replies: {} })).status).toBe(404);
    const world = await newWorld();
    const res = await grade(world, { rubric: gradeRubric(), replies: {}, tickets: ["ZD-9999"] });
    expect(res.status).toBe(400);
    expect(res.body.error?.code).toBe("unknown_ticket");
  });

  it("refuses an unknown body field", async () => {
    const world = await newWorld();
    const res = await grade(world, { rubric: gradeRubric(), replies: {}, colour: "red" });
    expect(res.status).toBe(400);
  });
});
