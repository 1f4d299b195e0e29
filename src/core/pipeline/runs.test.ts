// Runtime-neutral run logic: the episodes a run is made of, the agent request signature (checked against
// node:crypto, as an agent would compute it), and the hosted results' suggested commands.
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { RubricDocument, RubricTicket } from "../rubric/schema";
import { episodeId, episodeJobs, selectTickets } from "./plan";
import { signAgentRequest, verifyAgentRequest } from "./signature";
import { hostedReplay } from "./results";
import { budgetCheck } from "./record";
import type { PlannedTask } from "./plan";

const ticket = (id: number, label: string): RubricTicket => ({
  id,
  label,
  subject: `s${id}`,
  requester: { email: `r${id}@example.com`, name: `R${id}` },
  customer: null,
  candidates: [],
  decoys: [],
  claim: "policy",
  expect: null,
  terminal_status: ["solved"],
  trap_class: null,
  priority: "normal",
  tags: [],
});
const rubric: RubricDocument = { version: 1, seed: { name: "s", hash: "h" }, currency: "usd", mode: "isolated", invariants: [], budget: null, plan_names: [], tickets: [ticket(1, "A"), ticket(2, "B"), ticket(3, "C")] };
const planned = rubric.tickets.map((t) => ({ ticket: t }) as PlannedTask);

describe("episode planning", () => {
  it("isolated: one episode per task per run, numbered run-major in file order", () => {
    const jobs = episodeJobs("isolated", 2, planned);
    expect(jobs.map((j) => [j.seq, j.repetition, j.position])).toEqual([[1, 1, 1], [2, 1, 2], [3, 1, 3], [4, 2, 1], [5, 2, 2], [6, 2, 3]]);
    expect(jobs.every((j) => j.tickets.length === 1 && j.tickets[0] === j.position)).toBe(true);
    expect(episodeId("run_x", jobs[4])).toBe("run_x:2:2");
  });

  it("shift: one episode per run holding every task", () => {
    const jobs = episodeJobs("shift", 3, planned);
    expect(jobs.map((j) => [j.seq, j.repetition, j.position, j.tickets])).toEqual([[1, 1, 0, [1, 2, 3]], [2, 2, 0, [1, 2, 3]], [3, 3, 0, [1, 2, 3]]]);
  });

  it("selects tasks by id or position and names unknown ones", () => {
    const sel = selectTickets(rubric, ["C", "1"]);
    expect(sel.ok && sel.tickets.map((t) => t.label)).toEqual(["A", "C"]);
    expect(selectTickets(rubric, ["Z"])).toEqual({ ok: false, message: "task 'Z' matches no task in the file (its tasks: A, B, C)" });
  });
});

describe("agent request signature", () => {
  it("is sha256= hex HMAC of '<timestamp>.<body>' with the run's secret", async () => {
    const body = '{"task":null}';
    const h = await signAgentRequest("s3cret-s3cret-s3cret", body, 1_800_000_000.7);
    expect(h["x-worlds-timestamp"]).toBe("1800000000");
    expect(h["x-worlds-signature"]).toBe("sha256=" + createHmac("sha256", "s3cret-s3cret-s3cret").update(`1800000000.${body}`).digest("hex"));
    const get = (n: string) => h[n] ?? null;
    expect(await verifyAgentRequest("s3cret-s3cret-s3cret", get, body, 1_800_000_100)).toEqual({ ok: true });
    expect(await verifyAgentRequest("other-secret-other", get, body, 1_800_000_100)).toEqual({ ok: false, reason: "signature does not match" });
    expect(await verifyAgentRequest("s3cret-s3cret-s3cret", get, body + " ", 1_800_000_100)).toEqual({ ok: false, reason: "signature does not match" });
    expect((await verifyAgentRequest("s3cret-s3cret-s3cret", get, body, 1_800_000_400)).ok).toBe(false);
  });
});

describe("hosted results", () => {
  it("replays one task against the same server and agent URL", () => {
    expect(hostedReplay({ file: "my tasks.yaml", origin: "https://w.example", agentUrl: "https://a.example/x", replayFlags: ["--mode", "shift"] }, "ZD-1")).toBe(
      "worlds passk --tasks 'my tasks.yaml' --url https://w.example --agent-url https://a.example/x --mode shift --task ZD-1 --runs 1",
    );
  });
});

describe("the run's budget check", () => {
  const budgeted = (budget: RubricDocument["budget"]): RubricDocument => ({ ...rubric, budget });
  it("says over budget with what was spent and what was allowed, and within budget when it held", () => {
    const spent = [{ total: 12000, count: 2 }, { total: 8000, count: 1 }];
    expect(budgetCheck(budgeted({ credits_total_max: 15000 }), spent)).toEqual({ name: "budget", held: false, detail: "over budget: 20000 cents of credits, 15000 allowed" });
    expect(budgetCheck(budgeted({ credits_total_max: 20000, credits_count_max: 3 }), spent)).toEqual({ name: "budget", held: true, detail: "within budget: 20000 cents of credits, 20000 allowed; 3 credits, 3 allowed" });
    expect(budgetCheck(budgeted({ credits_count_max: 2 }), spent)?.detail).toBe("over budget: 3 credits, 2 allowed");
    expect(budgetCheck(budgeted(null), spent)).toBeNull();
  });
});
