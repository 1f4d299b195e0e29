// `import { loadTasks } from "worlds"`: the built library (dist/lib) reads a task file in each of its shapes (a
// benchmark, a bare list, one task; JSON or YAML) into the tasks as the file holds them, and throws every problem
// at once, each naming the file, line and task.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import type * as Lib from "../../src/package/index";
import { ROOT } from "./helpers/cli";

const lib = (await import(pathToFileURL(join(ROOT, "dist", "lib", "index.mjs")).href)) as typeof Lib;
const EXAMPLE = join(ROOT, "examples", "evals", "from-the-document.json");

describe("loadTasks from the package", () => {
  it("reads a benchmark, a bare list, one task and YAML into the tasks as the file holds them", async () => {
    const tasks = await lib.loadTasks(EXAMPLE);
    expect(tasks.map((t) => [t.slug, t.split])).toEqual([["shipping-address-change", "held_out"], ["duplicate-charge-refunded", "train"]]);
    // As the file holds it: no field added (no inferred effect), nothing dropped.
    expect(tasks[0]).toEqual(JSON.parse(readFileSync(EXAMPLE, "utf8")).tasks[0]);
    const dir = mkdtempSync(join(tmpdir(), "load-tasks-"));
    writeFileSync(join(dir, "list.json"), JSON.stringify(tasks));
    writeFileSync(join(dir, "one.json"), JSON.stringify(tasks[1]));
    writeFileSync(join(dir, "one.yaml"), `slug: ${tasks[1].slug}\norigin: success\nsplit: train\nprompt: Refund the extra charge.\nenvironment: {kind: replay}\ngrader: {kind: rubric, criteria: [{id: c1, claim: The duplicate was refunded.}]}\n`);
    expect((await lib.loadTasks(join(dir, "list.json"))).length).toBe(2);
    expect((await lib.loadTasks(join(dir, "one.json"))).map((t) => t.slug)).toEqual(["duplicate-charge-refunded"]);
    expect((await lib.loadTasks(join(dir, "one.yaml")))[0]).toMatchObject({ slug: "duplicate-charge-refunded", environment: { kind: "replay" } });
    expect(lib.parseTasks(JSON.stringify(tasks[0])).map((t) => t.slug)).toEqual(["shipping-address-change"]);
  });

  it("throws TaskFileError with every problem, naming file, line and task", async () => {
    const dir = mkdtempSync(join(tmpdir(), "load-tasks-"));
    writeFileSync(join(dir, "bad.json"), '[\n  {"slug": "x", "origin": "fail", "split": "train", "prompt": "p",\n   "environment": {"kind": "replay"}, "grader": {"kind": "rubric"}}\n]\n');
    const e = await lib.loadTasks(join(dir, "bad.json")).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(lib.TaskFileError);
    const problems = (e as InstanceType<typeof lib.TaskFileError>).problems;
    expect(problems.some((p) => /bad\.json:2:\d+: task x: origin: must be one of "failure", "success"/.test(p))).toBe(true);
    expect(problems.some((p) => /task x: grader\.criteria: is required/.test(p))).toBe(true);
  });
});
