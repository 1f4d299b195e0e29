import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { expectOf, isEndStateGrader, isReplayEnvironment, isRubricGrader, loadTasks } from "./index";

const example = readFileSync(new URL("../../../../../examples/evals/benchmark.json", import.meta.url), "utf8");

function minimal(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    slug: "t1",
    origin: "failure",
    split: "train",
    prompt: "Refund me",
    environment: { kind: "replay", tools: [{ name: "orders__get", effect: "read" }], observations: [{ tool: "orders__get", arguments: { id: "1" }, result: { id: "1" } }] },
    grader: { kind: "rubric", criteria: [{ id: "c1", claim: "The agent refunded." }] },
    ...over,
  };
}

function problems(doc: unknown): string[] {
  const r = loadTasks(JSON.stringify(doc, null, 2), "b.json");
  if (r.ok) throw new Error("expected problems");
  return r.problems.map((p) => `${p.line}:${p.column} ${p.message}`);
}

describe("loadTasks", () => {
  it("reads the example benchmark: kinds typed, unknown fields ignored, own kinds kept whole", () => {
    const r = loadTasks(example, "benchmark.json");
    if (!r.ok) throw new Error(r.problems.map((p) => p.message).join("\n"));
    expect(r.tasks.map((t) => t.task.slug)).toEqual(["duplicate-charge-refund", "cancel-at-period-end", "game-boots"]);
    const [refund, cancel, game] = r.tasks.map((t) => t.task);
    expect(isReplayEnvironment(refund.environment)).toBe(true);
    if (!isReplayEnvironment(refund.environment)) return;
    expect(refund.environment.tools.map((t) => [t.name, t.effect])).toEqual([
      ["orders__get", "read"],
      ["charges__list", "read"],
      ["refunds__create", "write"],
      ["tasks__create", "write"],
    ]);
    expect(refund.environment.tools[3].inputSchema).toMatchObject({ required: ["team", "summary"] });
    expect(refund.environment.person?.facts[1]).toEqual({ text: "The email on the account is dana@example.com.", disclose: "when_asked" });
    expect(isRubricGrader(refund.grader) && refund.grader.checks.length).toBe(2);
    expect("review" in refund).toBe(false);
    expect(r.tasks[0].raw.review).toEqual({ note: "a field worlds does not read: ignored" });
    if (!isReplayEnvironment(cancel.environment)) throw new Error("replay");
    expect(cancel.environment.person?.facts[0]).toEqual({ text: "Your account email is sam@example.com.", disclose: "always" });
    expect(cancel.environment.tools.map((t) => t.effect)).toEqual(["read", "write", "write"]);
    expect(isEndStateGrader(cancel.grader)).toBe(true);
    expect(cancel.reference[0].tool_calls[0]).toEqual({ tool: "subscriptions__find", arguments: { email: "sam@example.com" } });
    expect(expectOf(cancel, cancel.reference[0])).toBe("pass");
    expect(expectOf(refund, { expect: undefined })).toBe("fail");
    expect(game.environment).toEqual({ kind: "game-workspace", template: "vite" });
    expect(game.grader).toEqual({ kind: "play-check", taps: 3 });
    expect(r.tasks[2].line).toBeGreaterThan(r.tasks[1].line);
  });

  it("reads one task, or a list of tasks, as well as a benchmark", () => {
    const one = loadTasks(JSON.stringify(minimal()), "t.json");
    expect(one.ok && one.tasks.map((t) => t.task.slug)).toEqual(["t1"]);
    const list = loadTasks(JSON.stringify([minimal(), minimal({ slug: "t2" })]), "t.json");
    expect(list.ok && list.tasks.length).toBe(2);
  });

  it("names the task, the field, the line and the column of every problem, all at once", () => {
    const doc = { tasks: [minimal({ origin: "maybe" }), minimal({ slug: "t2", prompt: undefined })] };
    const out = problems(doc);
    expect(out).toHaveLength(2);
    expect(out[0]).toMatch(/^5:17 task t1: origin: must be one of "failure", "success"$/);
    expect(out[1]).toMatch(/task t2: prompt: is required/);
  });

  it("checks the kind's own fields: observations need a result and a listed tool; rubric needs criteria", () => {
    const env = { kind: "replay", tools: [{ name: "a", effect: "read" }], observations: [{ tool: "b", arguments: {}, result: 1 }, { tool: "a", arguments: {} }] };
    const out = problems({ tasks: [minimal({ environment: env, grader: { kind: "rubric", criteria: [] } })] });
    expect(out.some((m) => /task t1: grader\.criteria: needs at least one criterion/.test(m))).toBe(true);
    expect(out.some((m) => /task t1: environment\.observations\[1\]\.result: is required$/.test(m))).toBe(true);
    const cross = problems({ tasks: [minimal({ environment: { ...env, observations: [env.observations[0]] } })] });
    expect(cross).toEqual([expect.stringMatching(/task t1: environment\.observations\[0\]\.tool: 'b' is not one of environment\.tools \(a\)/)]);
  });

  it("refuses repeated slugs, criterion ids and reference labels", () => {
    const grader = { kind: "rubric", criteria: [{ id: "c", claim: "x" }], checks: [{ id: "c", must: "exist", tool: "a" }] };
    const out = problems({ tasks: [minimal(), minimal({ grader, reference: [{ label: "p" }, { label: "p" }] })] });
    expect(out.some((m) => /task t1: slug: repeats the slug of task #1/.test(m))).toBe(true);
    expect(out.some((m) => /grader\.checks\[0\]\.id: repeats the id 'c'/.test(m))).toBe(true);
    expect(out.some((m) => /reference\[1\]\.label: repeats the label 'p'/.test(m))).toBe(true);
  });

  it("refuses formats of another version, files of no tasks, and prototype keys", () => {
    expect(problems({ format: "x.benchmark/v2", tasks: [minimal()] })[0]).toMatch(/not a benchmark format of version 1/);
    expect(problems({ tasks: [minimal({ format: "x.task/v2" })] })[0]).toMatch(/task t1: format: must be a task format of version 1/);
    expect(problems({ tasks: [] })[0]).toMatch(/holds no tasks/);
    expect(problems(42)[0]).toMatch(/neither a task/);
    const r = loadTasks(`{"tasks": [{"slug": "t", "__proto__": {}}]}`, "b.json");
    expect(!r.ok && r.problems[0].message).toMatch(/'__proto__' is not allowed/);
    expect(loadTasks(JSON.stringify({ format: "someone-else.benchmark/v1", tasks: [minimal({ format: "someone-else.task/v1" })] }), "b.json").ok).toBe(true);
  });
});
