// Appending imported tasks to a tasks file through the yaml Document API (comments and layout kept), or
// starting a new file that validates as written.
import { isMap, isSeq, parseDocument, type Document } from "yaml";
import type { ImportedTask } from "./plan";

const STRINGIFY = { lineWidth: 0, flowCollectionPadding: false } as const;

/** A new tasks file: the seed, the two invariants every gate carries, and room for the tasks. */
export function newTasksFileText(seed: string, source: string): string {
  return [
    `# Tasks imported by \`worlds tasks import\` from ${source}. Check them with \`worlds tasks validate\`;`,
    "# give a task an expected: line (e.g. refund $24.30 on latest) to grade its outcome.",
    "version: 1",
    `seed: ${/^[A-Za-z0-9][A-Za-z0-9._/-]*$/.test(seed) ? seed : JSON.stringify(seed)}`,
    "# A run fails if a customer is deleted or a subscription created, keys or no keys.",
    "invariants:",
    "  - deleted.customers==0",
    "  - created.subscriptions==0",
    "tasks: []",
    "",
  ].join("\n");
}

export function existingTaskIds(doc: Document.Parsed): Set<string> {
  const ids = new Set<string>();
  const tasks = doc.get("tasks", true);
  if (!isSeq(tasks)) return ids;
  for (const item of tasks.items) {
    if (!isMap(item)) continue;
    const id = item.get("id");
    if (typeof id === "string" || typeof id === "number") ids.add(String(id).trim());
  }
  return ids;
}

export function appendTasks(doc: Document.Parsed, tasks: ImportedTask[]): string {
  let seq = doc.get("tasks", true);
  if (!isSeq(seq)) {
    doc.set("tasks", doc.createNode([]));
    seq = doc.get("tasks", true);
  }
  if (!isSeq(seq)) throw new Error("tasks: is not a list");
  // An empty `tasks: []` is written in flow style; a list of tasks reads better as a block.
  seq.flow = false;
  // One createNode for all the tasks: each call scans the whole document for anchors, so one per task would make
  // a large import quadratic. No aliases: every task is written out in full.
  const created = doc.createNode(tasks, { aliasDuplicateObjects: false });
  for (const node of isSeq(created) ? created.items : []) {
    const tags = isMap(node) ? node.get("tags", true) : null;
    if (isSeq(tags)) tags.flow = true;
    seq.items.push(node);
  }
  return doc.toString(STRINGIFY);
}

export function parseTasksDocument(text: string): { ok: true; doc: Document.Parsed } | { ok: false; message: string } {
  const doc = parseDocument(text, { uniqueKeys: true, schema: "core" });
  if (doc.errors.length) {
    const e = doc.errors[0];
    const at = e.linePos?.[0];
    return { ok: false, message: `${at ? `${at.line}:${at.col}: ` : ""}${e.message.split("\n")[0]}` };
  }
  if (doc.contents !== null && !isMap(doc.contents)) return { ok: false, message: "the file is not a mapping with version, seed and tasks" };
  return { ok: true, doc };
}
