// zod issues rewritten as problems a person can act on: the field, what it must be, what it was, and where.
import type { z } from "zod";
import { taskLabel, rawTasks } from "./labels";
import type { Problem } from "./problems";
import { TASK_FIELDS, TASKS_FILE_FIELDS } from "./schema";
import { locate, pathText, type PathSegment, type YamlSource } from "./source";
import { suggest } from "./words";

export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 37)}...` : value);
  return String(value);
}

const TYPE_WORDS: Record<string, string> = {
  string: "text",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  array: "a list",
  object: "a mapping",
  null: "null",
};

function valueAt(data: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let v: unknown = data;
  for (const seg of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<string | number, unknown>)[seg as string | number];
  }
  return v;
}

function issueMessage(issue: z.core.$ZodIssue, value: unknown, field: string): string {
  const got = value === undefined ? "" : ` (got ${describeValue(value)})`;
  switch (issue.code) {
    case "invalid_type":
      if (value === undefined) return `${field} is required`;
      return `${field} must be ${TYPE_WORDS[issue.expected] ?? issue.expected}${got}`;
    case "invalid_value":
      if (issue.values.length === 1) return `${field} must be ${String(issue.values[0])}${got}`;
      return `${field} must be one of ${issue.values.map(String).join(", ")}${got}`;
    case "too_small":
      if (issue.origin === "array") return Number(issue.minimum) === 1 ? `${field} must not be an empty list` : `${field} must list at least ${String(issue.minimum)}`;
      if (issue.origin === "string") return `${field} must not be empty`;
      return `${field} must be at least ${String(issue.minimum)}${got}`;
    case "too_big":
      if (issue.origin === "string") return `${field} must be at most ${String(issue.maximum)} characters`;
      if (issue.origin === "array") return `${field} may list at most ${String(issue.maximum)}`;
      return `${field} must be at most ${String(issue.maximum)}${got}`;
    case "invalid_format":
      if (issue.format === "email") return `${field} must be an email address${got}`;
      if (field === "currency") return `currency must be a lowercase three-letter code such as usd${got}`;
      if (field === "id") return `id must fit on one line`;
      return `${field} is not in the expected format${got}`;
    case "invalid_union": {
      const kinds = new Set<string>();
      for (const branch of issue.errors) for (const e of branch) if (e.code === "invalid_type") kinds.add(TYPE_WORDS[e.expected] ?? e.expected);
      const words = [...kinds];
      if (words.length) return `${field} must be ${words.length > 1 ? `${words.slice(0, -1).join(", ")} or ${words[words.length - 1]}` : words[0]}${got}`;
      return `${field} is not valid${got}`;
    }
    default:
      return `${field}: ${issue.message}`;
  }
}

/** One problem per zod issue; unknown keys become one problem per key, pinned on the key itself. */
export function schemaProblems(issues: ReadonlyArray<z.core.$ZodIssue>, source: YamlSource, data: unknown): Problem[] {
  const out: Problem[] = [];
  const tasks = rawTasks(data);
  for (const issue of issues) {
    const path = issue.path as PathSegment[];
    const inTask = path[0] === "tasks" && typeof path[1] === "number";
    const index = inTask ? (path[1] as number) : -1;
    const task = inTask ? taskLabel(tasks[index], index) : null;
    const local = inTask ? path.slice(2) : path;
    const prefix = task !== null ? `task ${task}: ` : "";
    if (issue.code === "unrecognized_keys") {
      const fields: ReadonlyArray<string> = inTask && local.length === 0 ? TASK_FIELDS : !inTask && local.length === 0 ? TASKS_FILE_FIELDS : [];
      for (const key of issue.keys) {
        const at = locate(source, [...path, key], { key: true });
        const near = suggest(key, fields);
        const where = local.length ? `${pathText(local)}: ` : "";
        const hint = near ? ` (did you mean ${near}?)` : fields.length ? ` (known fields: ${fields.join(", ")})` : "";
        out.push({ file: source.file, line: at.line, column: at.column, task, path: pathText([...path, key]), message: `${prefix}${where}unknown field '${key}'${hint}` });
      }
      continue;
    }
    const value = valueAt(data, path);
    const at = value === undefined ? locate(source, path.slice(0, -1)) : locate(source, path);
    const field = local.length ? pathText(local) : inTask ? "the task" : "the file";
    let message = issueMessage(issue, value, field);
    if (inTask && local.length === 0 && issue.code === "invalid_type") message = `the task must be a mapping with requester, subject and body (got ${describeValue(value)})`;
    if (!inTask && local.length === 0 && issue.code === "invalid_type") message = `the file must be a mapping with version, seed and tasks (got ${describeValue(value)})`;
    out.push({ file: source.file, line: at.line, column: at.column, task, path: pathText(path), message: prefix + message });
  }
  return out;
}
