// A replay tool's effect when the task file does not state it (docs/replay.md, "Effects"). A lookup answered as a
// write would log a change production never made, and a write answered as a lookup would hide one from the
// grader, so the rule is narrow: a tool is a read only when its name (or, with no verb in the name, its
// description) says it looks something up, and the file's own recordings never show it changing what a later
// lookup answers. Anything else stays a write, as an unstated effect always was.
import { canonicalJson } from "../../../util/canonical";

export type EffectSource = "stated" | "annotation" | "inferred";

/** Verbs of a lookup, and of a change; a name holding both (`get_or_create`) is a change. */
const READ_VERBS = new Set(["get", "list", "find", "search", "lookup", "fetch", "read", "query", "retrieve", "show", "view", "describe", "check", "count", "browse", "inspect", "lookups", "gets", "lists", "finds", "searches", "fetches", "reads", "retrieves", "shows", "describes", "checks", "counts"]);
const WRITE_VERBS = new Set([
  "create", "update", "delete", "remove", "send", "post", "put", "patch", "set", "add", "cancel", "refund", "issue", "open", "close", "submit", "write", "edit", "change", "modify", "apply", "charge", "pay", "void", "escalate", "assign", "reply", "notify", "transfer", "approve", "reject", "archive", "restore", "upsert", "insert", "save", "schedule", "book", "reset", "revoke", "grant", "merge", "move", "tag", "mark", "start", "stop", "run", "trigger", "execute",
  "creates", "updates", "deletes", "removes", "sends", "posts", "sets", "adds", "cancels", "refunds", "issues", "opens", "closes", "submits", "writes", "edits", "changes", "modifies", "applies", "charges", "pays", "voids", "escalates", "assigns", "replies", "notifies", "transfers", "approves", "rejects", "archives", "restores", "saves", "schedules", "books", "resets", "revokes", "grants", "merges", "moves", "tags", "marks", "starts", "stops", "runs", "triggers", "executes",
]);

/** `orders__get`, `getOrder`, `look-up.customer` -> lower-case words; `look up` is one verb. */
function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .replace(/\blook(s|ed|ing)?[\s_-]*up\b/g, "lookup")
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** What a name or a description says: a lookup, a change, or nothing either way. */
function verbOf(tokens: readonly string[]): "read" | "write" | null {
  if (tokens.some((t) => WRITE_VERBS.has(t))) return "write";
  return tokens.some((t) => READ_VERBS.has(t)) ? "read" : null;
}

/** The description's first sentence: what the tool does, not what it returns or warns about later. */
function saysRead(name: string, description: string): boolean {
  const byName = verbOf(words(name));
  if (byName) return byName === "read";
  const first = description.split(/(?<=[.!?])\s/)[0] ?? "";
  return verbOf(words(first).slice(0, 3)) === "read";
}

export interface RecordedCall {
  tool: string;
  arguments: Record<string, unknown>;
  result?: unknown;
}

/**
 * Tools that the recordings show changing something: a tool called between two calls of one tool with the same
 * arguments whose answers differ. Each sequence is one recording (the observations, each reference run's calls).
 */
export function changersOf(sequences: ReadonlyArray<readonly RecordedCall[]>): Set<string> {
  const changers = new Set<string>();
  for (const calls of sequences) {
    const last = new Map<string, { at: number; answer: string }>();
    calls.forEach((c, i) => {
      if (!("result" in c) || c.result === undefined) return;
      const key = `${c.tool}\u0000${canonicalJson(c.arguments)}`;
      const answer = canonicalJson(c.result);
      const before = last.get(key);
      if (before && before.answer !== answer) for (let j = before.at + 1; j < i; j++) changers.add(calls[j].tool);
      last.set(key, { at: i, answer });
    });
  }
  return changers;
}

/** Whether a tool whose effect the file leaves out is a read: its words say so and no recording shows it changing anything. */
export function inferredRead(t: { name: string; description: string }, changers: ReadonlySet<string>): boolean {
  return saysRead(t.name, t.description) && !changers.has(t.name);
}
