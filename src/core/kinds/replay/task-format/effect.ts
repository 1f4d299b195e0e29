// A replay tool's effect when the task file does not state it (docs/replay.md, "Effects"). A lookup answered as a
// write would log a change production never made, and a write answered as a lookup would hide one from the
// grader, so the rule is narrow: a tool is a read only when its name (or, with no verb in the name, its
// description) says it looks something up, and the file's own recordings never show it changing what a later
// lookup answers. Anything else stays a write, as an unstated effect always was.
import { canonicalJson } from "../../../util/canonical";

export type EffectSource = "stated" | "annotation" | "inferred";

/** Verbs of a lookup. */
const READ_VERBS = verbs("get list find search lookup fetch read query retrieve show view describe check count browse inspect");
/** Verbs that only ever change something; a name holding one is a change even beside a lookup verb (`get_or_create`). */
const WRITE_VERBS = verbs("create update delete remove send put patch set add cancel submit write edit modify apply void escalate assign notify approve reject archive restore upsert insert save reset revoke grant merge trigger execute open close");
/**
 * Words that are a change as verbs and a thing as nouns (`refunds__list`, `charges__get`, `tags_find`): a change
 * only when the name holds no lookup verb.
 */
const NOUN_OR_WRITE = verbs("refund charge issue pay tag mark book run start stop move change reply transfer schedule post");

/** Each verb with its third-person form, as descriptions write them ("Looks up", "Creates"). */
function verbs(list: string): Set<string> {
  const out = new Set<string>();
  for (const v of list.split(" ")) {
    out.add(v);
    out.add(/(s|sh|ch|x)$/.test(v) ? `${v}es` : /[^aeiou]y$/.test(v) ? `${v.slice(0, -1)}ies` : `${v}s`);
  }
  return out;
}

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
  if (tokens.some((t) => READ_VERBS.has(t))) return "read";
  return tokens.some((t) => NOUN_OR_WRITE.has(t)) ? "write" : null;
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
