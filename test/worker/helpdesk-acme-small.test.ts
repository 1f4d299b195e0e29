import { describe, expect, it } from "vitest";
import type { WorldDiff } from "../../src/core/world/diff/types";
import { adminGet, createWorld, desk, json } from "./helpdesk-world";

describe("help desk on the bundled acme-small seed", () => {
  it("puts six customer tickets on the desk and attributes replies to the requester's billing customer", async () => {
    const w = await createWorld("acme-small");
    const list = await json<{ tickets: Array<{ id: number; status: string }>; count: number }>(await desk(w, "GET", "tickets.json"));
    expect(list.tickets.map((t) => t.id)).toEqual([4101, 4102, 4103, 4104, 4105, 4106]);
    const me = await json<{ user: { id: number; role: string } }>(await desk(w, "GET", "users/me.json"));
    expect(me.user).toMatchObject({ id: 1, role: "agent" });
    const open = await json<{ results: Array<{ id: number }> }>(await desk(w, "GET", "search.json?query=type%3Aticket%20status%3Cpending"));
    expect(open.results.map((r) => r.id)).toEqual([4101, 4102, 4103, 4104, 4106]);

    for (const id of [4101, 4104]) {
      const res = await desk(w, "PUT", `tickets/${id}.json`, { ticket: { comment: { body: "Looking into it." }, status: "pending" } });
      expect(res.status).toBe(200);
    }
    const diff = await adminGet<WorldDiff>(`/admin/worlds/${w.id}/diff`);
    expect(diff.entries.filter((e) => e.type === "tickets").map((e) => [e.id, e.customer])).toEqual([
      ["4101", "cus_AcmeNorthwind"],
      // Two customers share this billing email; the ticket belongs to the first by id.
      ["4104", "cus_AcmeHarborDowntown"],
    ]);
  });
});
