// Reading a task file: a benchmark ({tasks: [...]}), a list of tasks, or one task, in JSON (or YAML, its
// superset). Every problem is pinned to file, line, column, task and field, and all of them are reported at once.
import type { z } from "zod";
import { dict } from "../../../util/safe-tree";
import { checkTasksText, locate, parseYamlSource, pathText, type PathSegment } from "../../account/tasks/source";
import type { Problem } from "../../account/tasks/problems";
import {
  BENCHMARK_FORMAT_RULE,
  END_STATE_KIND,
  EndStateGraderSchema,
  REPLAY_KIND,
  ReplayEnvironmentSchema,
  RUBRIC_KIND,
  RubricGraderSchema,
  TaskSchema,
  isEndStateGrader,
  isReplayEnvironment,
  isRubricGrader,
  type EvalTask,
  type TaskEnvironment,
  type TaskGrader,
} from "./format";
import { changersOf, inferredRead } from "./effect";
import { MAX_REPLAY_BLOCK_BYTES, replayBlock, replayBlockSizeProblem } from "../recorded/world-block";

const utf8 = new TextEncoder();

export const MAX_TASKS = 10_000;

export interface LoadedTask {
  task: EvalTask;
  /** The task exactly as the file holds it (a user's own environment or grader code gets this). */
  raw: Record<string, unknown>;
  /** Where it sits in the file. */
  line: number;
}

export type LoadResult = { ok: true; tasks: LoadedTask[] } | { ok: false; problems: Problem[] };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Where the tasks are: the path of the list inside the document (empty when the document is one task). */
function taskList(data: unknown): { base: PathSegment[]; items: unknown[] } | string {
  if (Array.isArray(data)) return { base: [], items: data };
  if (!isObject(data)) return "the file holds neither a task, a list of tasks, nor a benchmark ({\"tasks\": [...]})";
  if ("tasks" in data) {
    if (typeof data.format === "string" && !BENCHMARK_FORMAT_RULE.test(data.format)) return `format: '${data.format}' is not a benchmark format of version 1 (<name>.benchmark/v1)`;
    if (!Array.isArray(data.tasks)) return "tasks: must be a list of tasks";
    return { base: ["tasks"], items: data.tasks };
  }
  return { base: [], items: [data] };
}

export function loadTasks(text: string, file: string): LoadResult {
  const checked = checkTasksText(text, file);
  if (!checked.ok) return checked;
  const parsed = parseYamlSource(checked.text, file);
  if (!parsed.ok) return parsed;
  const { source, data } = parsed;
  // One task, not a list: its fields' paths start at the top of the document.
  const fileProblem = (message: string): LoadResult => ({ ok: false, problems: [{ file, line: 1, column: 1, task: null, path: "", message }] });
  const list = taskList(data);
  if (typeof list === "string") return fileProblem(list);
  const single = !Array.isArray(data) && !(isObject(data) && "tasks" in data);
  if (list.items.length === 0) return fileProblem("the file holds no tasks");
  if (list.items.length > MAX_TASKS) return fileProblem(`the file holds ${list.items.length} tasks; at most ${MAX_TASKS} are read`);

  const problems: Problem[] = [];
  const tasks: LoadedTask[] = [];
  const slugs = dict<number>();
  list.items.forEach((item, i) => {
    const base = single ? [] : [...list.base, i];
    const label = isObject(item) && typeof item.slug === "string" && item.slug ? item.slug : `#${i + 1}`;
    const report = (path: PathSegment[], message: string) => {
      const at = locate(source, [...base, ...path], { key: false });
      const field = pathText(path);
      problems.push({ file, line: at.line, column: at.column, task: label, path: pathText([...base, ...path]), message: `task ${label}: ${field ? `${field}: ` : ""}${message}` });
    };
    if (label !== `#${i + 1}`) {
      const first = slugs[label];
      if (first !== undefined) report(["slug"], `repeats the slug of task #${first + 1}; slugs name tasks in results and must be unique`);
      else slugs[label] = i;
    }
    const one = readTask(item, report);
    if (one) tasks.push({ task: one, raw: item as Record<string, unknown>, line: locate(source, base).line });
  });
  return problems.length ? { ok: false, problems } : { ok: true, tasks };
}

/** The effects the file left out, from the tools' words and what the task's recordings show (effect.ts). */
function inferEffects(task: EvalTask): void {
  const env = task.environment;
  if (!isReplayEnvironment(env) || !env.tools.some((t) => t.effect === "unknown")) return;
  const changers = changersOf([env.observations, ...task.reference.map((r) => r.tool_calls)]);
  for (const t of env.tools) if (t.effect === "unknown") t.effect = inferredRead(t, changers) ? "read" : "write";
}

type Report = (path: PathSegment[], message: string) => void;

function issues(error: z.ZodError, report: Report, prefix: PathSegment[] = []): void {
  for (const issue of error.issues) report([...prefix, ...(issue.path as PathSegment[])], issueMessage(issue));
}

function issueMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === "invalid_type" && issue.expected === "nonoptional") return "is required";
  if (issue.code === "invalid_type" && /received undefined/.test(issue.message)) return `is required (${issue.expected})`;
  if (issue.code === "invalid_value") return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
  return issue.message.replace(/^Invalid input: /, "");
}

function readTask(item: unknown, report: Report): EvalTask | null {
  if (!isObject(item)) {
    report([], "must be an object");
    return null;
  }
  const base = TaskSchema.safeParse(item);
  if (!base.success) issues(base.error, report);
  // The kinds' own fields are checked even when the rest of the task is wrong, so one pass reports everything.
  const kinded = (v: unknown) => (isObject(v) && typeof v.kind === "string" && v.kind ? (v as { kind: string }) : null);
  const envIn = kinded(item.environment);
  const graderIn = kinded(item.grader);
  const environment = envIn && readEnvironment(envIn, report);
  const grader = graderIn && readGrader(graderIn, report);
  if (!base.success || !environment || !grader) return null;
  const task: EvalTask = { ...base.data, environment, grader };
  if (!crossCheck(task, report)) return null;
  inferEffects(task);
  return task;
}

function readEnvironment(env: { kind: string }, report: Report): TaskEnvironment | null {
  if (env.kind !== REPLAY_KIND) return env;
  const r = ReplayEnvironmentSchema.safeParse(env);
  if (!r.success) {
    issues(r.error, report, ["environment"]);
    return null;
  }
  return r.data;
}

function readGrader(g: { kind: string }, report: Report): TaskGrader | null {
  const schema = g.kind === RUBRIC_KIND ? RubricGraderSchema : g.kind === END_STATE_KIND ? EndStateGraderSchema : null;
  if (!schema) return g;
  const r = schema.safeParse(g);
  if (!r.success) {
    issues(r.error, report, ["grader"]);
    return null;
  }
  return r.data;
}

/** Rules across fields: names that must point at something, ids that must not repeat. */
function crossCheck(task: EvalTask, report: Report): boolean {
  let ok = true;
  const fail = (path: PathSegment[], message: string) => ((ok = false), report(path, message));
  const env = task.environment;
  if (isReplayEnvironment(env)) {
    const tools = new Set(env.tools.map((t) => t.name));
    const seen = new Set<string>();
    env.tools.forEach((t, i) => {
      if (seen.has(t.name)) fail(["environment", "tools", i, "name"], `repeats the tool '${t.name}'`);
      seen.add(t.name);
    });
    env.observations.forEach((o, i) => {
      if (!tools.has(o.tool)) fail(["environment", "observations", i, "tool"], `'${o.tool}' is not one of environment.tools (${[...tools].join(", ") || "none"})`);
    });
    // A world stores its tools and recordings as one value: a task too large for it is refused here, at read,
    // rather than by the server when the first trial makes its world.
    const tooLarge = replayBlockSizeProblem(replayBlock(task.slug, env));
    if (tooLarge) {
      const sizes = env.observations.map((o) => utf8.encode(JSON.stringify(o)).byteLength);
      const largest = sizes.indexOf(Math.max(0, ...sizes));
      const at = largest >= 0 && sizes[largest] > MAX_REPLAY_BLOCK_BYTES / 2 ? ["environment", "observations", largest, "result"] : ["environment", "observations"];
      fail(at, `${tooLarge}${at.length > 2 ? `; this recording alone is ${sizes[largest]} bytes` : ""}`);
    }
  }
  const g = task.grader;
  const ids = new Set<string>();
  const unique = (list: Array<{ id: string }>, field: string) =>
    list.forEach((c, i) => {
      if (ids.has(c.id)) fail(["grader", field, i, "id"], `repeats the id '${c.id}'; every criterion and check needs its own`);
      ids.add(c.id);
    });
  if (isRubricGrader(g)) unique(g.criteria, "criteria");
  if (isRubricGrader(g) || isEndStateGrader(g)) unique(g.checks, "checks");
  const labels = new Set<string>();
  task.reference.forEach((r, i) => {
    if (labels.has(r.label)) fail(["reference", i, "label"], `repeats the label '${r.label}'`);
    labels.add(r.label);
  });
  return ok;
}
