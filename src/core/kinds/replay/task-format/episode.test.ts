// The pure parts of an evals episode, without a server: the task an agent is given, the tasks as rubric tickets,
// the verdict of a graded record, the replay tally's line, and the record handed to the results builder (checked
// against the results contract's own schemas, so a record the builder would refuse fails here first).
import { describe, expect, it } from "vitest";
import { episodeRecord } from "../../../results/input";
import { rubricDocument } from "../../../rubric/schema";
import type { GraderRecord } from "../../../results/grader-record";
import { criteriaVerdict, evalsAgentTask, evalsGradedRecord, evalsRubric, tallyLine } from "./episode";
import { loadTasks, type EvalTask } from "./index";

function tasks(...over: Array<Record<string, unknown>>): EvalTask[] {
  const doc = over.map((o, i) => ({
    slug: `t${i + 1}`,
    origin: "failure",
    split: "train",
    prompt: "Refund me",
    environment: { kind: "replay", tools: [{ name: "orders__get", effect: "read" }], observations: [] },
    grader: { kind: "rubric", criteria: [{ id: "c1", claim: "The agent refunded." }] },
    ...o,
  }));
  const r = loadTasks(JSON.stringify(doc), "b.json");
  if (!r.ok) throw new Error(r.problems.map((p) => p.message).join("\n"));
  return r.tasks.map((t) => t.task);
}

const record = (o: Partial<GraderRecord>): GraderRecord => ({ grader: "rubric", verdict: null, passed: true, reward: 1, reasons: [], dollars_wrong_cents: null, ...o });

describe("evalsAgentTask", () => {
  it("gives the agent the slug, the prompt and the tools in OpenAI's function shape, in their order", () => {
    const [t] = tasks({ slug: "refund-dup", prompt: "I was charged twice." });
    const schema = { type: "object", properties: { id: { type: "string" } }, required: ["id"] };
    expect(evalsAgentTask(t, [{ name: "orders__get", description: "Get an order.", inputSchema: schema }, { name: "refunds__create", description: "", inputSchema: {} }])).toEqual({
      id: "refund-dup",
      request: "I was charged twice.",
      tools: [
        { type: "function", function: { name: "orders__get", description: "Get an order.", parameters: schema } },
        { type: "function", function: { name: "refunds__create", description: "", parameters: {} } },
      ],
    });
    expect(evalsAgentTask(t, []).tools).toEqual([]);
  });
});

describe("evalsRubric", () => {
  it("makes ticket n of task n, a valid rubric document whose labels, slices and tags are the tasks'", () => {
    const ts = tasks({ slug: "a", tags: ["billing", "refund"] }, { slug: "b", origin: "success", split: "held_out", expected: "The agent cancels at period end." });
    const doc = evalsRubric({ name: "bench.json", hash: "abc" }, ts);
    expect(rubricDocument.safeParse(doc).success).toBe(true);
    expect(doc.seed).toEqual({ name: "bench.json", hash: "abc" });
    expect(doc.tickets.map((t) => [t.id, t.label, t.trap_class, t.tags])).toEqual([
      [1, "a", "failure (train)", ["billing", "refund"]],
      [2, "b", "success (held_out)", []],
    ]);
    expect(doc.tickets.map((t) => t.expect?.line)).toEqual(["rubric: every criterion met", "rubric: The agent cancels at period end."]);
  });

  it("folds a prompt's whitespace and cuts a long subject at 120 characters with an ellipsis", () => {
    const long = `Line one\n\n   line two ${"x".repeat(300)}`;
    const [t] = tasks({ prompt: long, expected: "y".repeat(300) });
    const ticket = evalsRubric({ name: "b", hash: "h" }, [t]).tickets[0];
    expect(ticket.subject).toHaveLength(120);
    expect(ticket.subject.startsWith("Line one line two xx")).toBe(true);
    expect(ticket.subject.endsWith("...")).toBe(true);
    expect(ticket.expect?.line).toBe(`rubric: ${"y".repeat(117)}...`);
    const short = evalsRubric({ name: "b", hash: "h" }, tasks({ prompt: "x".repeat(120) })).tickets[0];
    expect(short.subject).toBe("x".repeat(120));
  });

  it("is the same document for the same tasks (no clock, no randomness)", () => {
    const ts = tasks({}, { slug: "second" });
    expect(JSON.stringify(evalsRubric({ name: "b", hash: "h" }, ts))).toBe(JSON.stringify(evalsRubric({ name: "b", hash: "h" }, ts)));
  });
});

describe("criteriaVerdict", () => {
  it("is passed when every criterion was met, criteria_unmet when one was not, and no verdict without an opinion", () => {
    expect(criteriaVerdict(record({ passed: true }))).toBe("passed");
    expect(criteriaVerdict(record({ passed: false, reward: 0.5 }))).toBe("criteria_unmet");
    expect(criteriaVerdict(record({ passed: null, reward: null }))).toBeNull();
  });
});

describe("tallyLine", () => {
  const tally = { calls: 9, exact: 3, near: 1, unrecorded: 0, writes: 2, refused: 1, unrecorded_calls: [] };
  it("counts the calls by how the recording answered them", () => {
    expect(tallyLine(tally)).toBe("calls: 9 (exact 3, near 1, unrecorded 0, writes 2, refused 1)");
  });
  it("names the first five lookups production never made", () => {
    const strayed = ["a", "b", "c", "d", "e", "f"].map((tool) => ({ tool, arguments: {} }));
    expect(tallyLine({ ...tally, unrecorded: 6, unrecorded_calls: strayed })).toBe("calls: 9 (exact 3, near 1, unrecorded 6: a, b, c, d, e, writes 2, refused 1)");
  });
});

describe("evalsGradedRecord", () => {
  const base = { run: 2, ticket: 3, world: "w_1", agent: { exit_code: 0, signal: null, timed_out: false, start_error: null, error: null, duration_ms: 5 }, reply: "Done.", writes: [] as Array<{ type: string; id: string; op: "created" }>, notes: ["calls: 1 (exact 1, near 0, unrecorded 0, writes 0, refused 0)"] };

  it("puts the unmet criteria first, then the reward (rounded) and its grader, then the other reasons and notes", () => {
    const r = evalsGradedRecord({
      ...base,
      record: record({ passed: false, reward: 2 / 3, reasons: ["met c1: yes", "not met c2: never said the fee", "met c3: fine", "not met c4: no refund"] }),
      verdict: "criteria_unmet",
    });
    expect(episodeRecord.safeParse(r).success).toBe(true);
    expect(r).toMatchObject({ run: 2, world: "w_1", tickets: [3], agent: { exit_code: 0 }, traffic: null, checks: [] });
    expect(r.grades).toHaveLength(1);
    expect(r.grades![0]).toMatchObject({ ticket: 3, verdict: "criteria_unmet", reply: "Done." });
    expect(r.grades![0].evidence!.notes).toEqual([
      "not met c2: never said the fee",
      "not met c4: no refund",
      "reward 0.667 by rubric",
      "met c1: yes",
      "met c3: fine",
      "calls: 1 (exact 1, near 0, unrecorded 0, writes 0, refused 0)",
    ]);
  });

  it("keeps the writes as diff entries, and says no reward when the grader gave none", () => {
    const r = evalsGradedRecord({ ...base, writes: [{ type: "records", id: "refund_1", op: "created" }], notes: [], record: record({ reward: null, reasons: ["met c1: yes"] }), verdict: "passed" });
    expect(episodeRecord.safeParse(r).success).toBe(true);
    expect(r.grades![0].evidence!.diff).toEqual([{ type: "records", id: "refund_1", op: "created" }]);
    expect(r.grades![0].evidence!.notes).toEqual(["met c1: yes"]);
  });
});
