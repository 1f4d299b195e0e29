// What the judge is shown: in isolated mode the stdout and every change in the world in words; in shift mode the
// desk's public replies, the ticket's status, internal notes among the changes.
import { describe, expect, it } from "vitest";
import { gradeWorld } from "../kinds/account/grader/index";
import { rubric, world } from "../kinds/account/grader/testkit";
import type { AgentTask } from "../pipeline/task";
import { judgeCases } from "./case";

const task = (id: number, subject: string): AgentTask => ({ id, label: `T-${id}`, subject, body: "body", requester: { name: "R", email: "r@example.com" }, priority: "normal", tags: ["x"] });
const tasks = new Map([[7, task(7, "Charged twice")], [8, task(8, "Cancel please")]]);
const comment = (id: string, ticket: number, body: string, pub = true) => ({ id, ticket_id: ticket, body, plain_body: body, public: pub });

describe("judge cases", () => {
  it("isolated: the reply is stdout, the changes every action in the world in words and amounts", () => {
    const r = rubric([{ id: 7, customer: "cus_alice", expect: { action: "refund", amount: 24300, target: "ch_a2" } }]);
    const w = world().refund("re_1", "ch_a2", 24300).refund("re_2", "ch_b1", 24300);
    const g = gradeWorld(r, w.diff(), { "7": "Refunded." }, { mode: "isolated", tickets: [7] });
    const c = judgeCases(tasks, "isolated", g, w.diff(), "  Refunded.  ").get(7)!;
    expect(c).toMatchObject({ mode: "isolated", reply: "Refunded.", status_after: null, ticket: { subject: "Charged twice", tags: ["x"] } });
    expect(c.changes[0]).toBe("refund $243.00 on ch_a2 (on the requester's own account)");
    expect(c.changes[1]).toMatch(/^refund \$243\.00 on ch_b1 on cus_bob, which no task names/);
    expect(judgeCases(tasks, "isolated", g, w.diff(), "   ").get(7)!.reply).toBeNull();
  });

  it("shift: the desk's public replies and the status; internal notes are changes", () => {
    const r = rubric([{ id: 7, customer: "cus_alice", expect: { action: "refund", amount: 24300, target: "ch_a2" } }, { id: 8, customer: "cus_carol", expect: { action: "cancel_at_period_end", target: "sub_c1" } }], { mode: "shift" });
    const w = world()
      .create("ticket_comments", comment("501", 7, "Looking into it.", false), "cus_alice")
      .create("ticket_comments", comment("502", 7, "Refund issued."), "cus_alice")
      .update("tickets", "7", { status: "solved" }, "cus_alice");
    const g = gradeWorld(r, w.diff(), {}, { objects: { tickets: [w.get("8")] } });
    const cases = judgeCases(tasks, "shift", g, w.diff(), "stdout is not the reply in shift mode");
    expect(cases.get(7)).toMatchObject({ reply: "Refund issued.", status_after: "solved", changes: ['added an internal note to the ticket: "Looking into it."'] });
    expect(cases.get(8)).toMatchObject({ reply: null, status_after: "open", changes: [] });
  });
});
