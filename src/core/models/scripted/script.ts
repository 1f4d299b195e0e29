// The script `worlds model serve` answers from (docs/models.md): ordered rules, the first that matches a request
// answers it. Validated with zod, with every problem named by its place in the file, so a typo is an error
// before the server starts rather than a rule that silently never matches.
import { RE2JS } from "re2js";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { describeTreeProblem, FILE_MAX_DEPTH, findTreeProblem } from "../../util/safe-tree";
import { compileGlob, type Glob } from "./glob";

const usage = z.strictObject({ input_tokens: z.number().int().nonnegative(), output_tokens: z.number().int().nonnegative() });

const toolCall = z.strictObject({
  name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, "must be 1-64 letters, digits, _ or -"),
  /** Strings may use $1..$9 (and $0) for the groups last_message captured. */
  arguments: z.record(z.string(), z.unknown()).default({}),
  /**
   * OpenAI only: the arguments text sent exactly as given instead of `arguments` (broken JSON, or a number made
   * from a $1 group). Anthropic's tool input is an object, so there `arguments` is sent.
   */
  arguments_text: z.string().optional(),
});

const RESPONSE_KINDS = ["text", "json", "raw", "tool_calls", "refuse", "error", "hang"] as const;

const respond = z
  .strictObject({
    /** A plain answer. */
    text: z.string().optional(),
    /** A JSON answer: the structured answer when the request asked for one (response format or forced tool), else its text. */
    json: z.unknown().optional(),
    /** The answer's content exactly as given, for malformed answers (broken JSON where JSON was asked for). */
    raw: z.string().optional(),
    tool_calls: z.array(toolCall).min(1).optional(),
    /** The model declines (OpenAI's refusal field, Anthropic's refusal stop). */
    refuse: z.string().optional(),
    error: z
      .strictObject({
        status: z.number().int().min(400).max(599),
        /** Seconds, sent as Retry-After. */
        retry_after: z.number().nonnegative().max(3600).optional(),
        message: z.string().optional(),
      })
      .optional(),
    /** Never answer: the connection stays open until the client gives up. */
    hang: z.literal(true).optional(),
    /** Why the model stopped, for text/json/raw: length makes a truncated answer. */
    stop: z.enum(["end", "length"]).optional(),
    usage: usage.optional(),
  })
  .superRefine((r, ctx) => {
    const kinds = RESPONSE_KINDS.filter((k) => r[k] !== undefined);
    if (kinds.length !== 1)
      ctx.addIssue({ code: "custom", message: kinds.length === 0 ? `needs one of ${RESPONSE_KINDS.join(", ")}` : `has ${kinds.join(" and ")}: give exactly one of ${RESPONSE_KINDS.join(", ")}` });
    if (r.stop && !(r.text !== undefined || r.json !== undefined || r.raw !== undefined)) ctx.addIssue({ code: "custom", path: ["stop"], message: "applies only to text, json or raw" });
  });

/** The three model APIs the server speaks; `provider: openai` covers the first two. */
export const MODEL_APIS = ["chat", "responses", "messages"] as const;
export type ModelApi = (typeof MODEL_APIS)[number];

const when = z.strictObject({
  /** openai: Chat Completions and Responses; anthropic: Messages. */
  provider: z.enum(["openai", "anthropic"]).optional(),
  /** One API: chat (Chat Completions), responses (Responses) or messages (Anthropic Messages). */
  api: z.enum(MODEL_APIS).optional(),
  /** The model id; * matches any run of characters. */
  model: z.string().min(1).optional(),
  /**
   * A regular expression (RE2 syntax: JavaScript's less lookaround and backreferences; case-insensitive) searched
   * in the first MAX_MATCHED_CHARS of the last user or tool message.
   */
  last_message: z.string().min(1).optional(),
  /** Which kind that last message must be. */
  role: z.enum(["user", "tool"]).optional(),
  /** Whether the request offers tools (a forced structured-answer tool does not count). */
  tools: z.boolean().optional(),
  /** Whether the request asks for a structured answer (a JSON-schema response format or a forced tool). */
  schema: z.boolean().optional(),
  /** The structured answer's name (the response format's or the forced tool's), e.g. person_reply or judgement. */
  answer: z.string().min(1).max(64).optional(),
});

export const scriptRule = z.strictObject({
  name: z.string().min(1).max(200).optional(),
  when: when.default({}),
  /** Answer only the first N requests this rule matches; later ones fall through to the next rules. */
  times: z.number().int().positive().optional(),
  /**
   * Answer with this probability; otherwise the request falls through to the next rules. The draw is keyed on
   * the rule, the last message and how many times this rule has seen that message, so runs repeat.
   */
  p: z.number().min(0).max(1).optional(),
  /** Wait this long before answering (a slow model). */
  latency_ms: z.number().int().nonnegative().max(600_000).optional(),
  respond,
});
export type ScriptRule = z.infer<typeof scriptRule>;

export const scriptDocument = z.strictObject({
  version: z.literal(1),
  rules: z.array(scriptRule).min(1, "needs at least one rule"),
});
export type ScriptDocument = z.infer<typeof scriptDocument>;

/**
 * How much of the last message a rule's pattern reads. Matching is linear in it (RE2), and a bound keeps one
 * request's cost small whatever its size, so no request can hold the server up for the others.
 */
export const MAX_MATCHED_CHARS = 64 * 1024;

/** A compiled last_message pattern: the match and its groups ($0..$9), or null. */
export interface MessagePattern {
  exec(text: string): string[] | null;
}

export interface CompiledRule extends ScriptRule {
  index: number;
  label: string;
  pattern: MessagePattern | null;
  modelPattern: Glob | null;
}

export interface Script {
  rules: CompiledRule[];
}

export type ScriptLoad = { ok: true; script: Script } | { ok: false; problems: string[] };

/** A script from its text (YAML or JSON), or every problem in it. */
export function loadScript(text: string, fileName: string): ScriptLoad {
  let doc: unknown;
  try {
    doc = parseYaml(text, { maxAliasCount: 100 });
  } catch (e) {
    return { ok: false, problems: [`${fileName}: not YAML or JSON: ${(e as Error).message.split("\n")[0]}`] };
  }
  const tree = findTreeProblem(doc, FILE_MAX_DEPTH);
  if (tree) return { ok: false, problems: [`${fileName}: ${describeTreeProblem(tree)}`] };
  return compileScript(doc, fileName);
}

export function compileScript(doc: unknown, fileName = "script"): ScriptLoad {
  const parsed = scriptDocument.safeParse(doc);
  if (!parsed.success) return { ok: false, problems: parsed.error.issues.map((i) => `${fileName}: ${where(i.path)}${i.message}`) };
  const problems: string[] = [];
  const rules = parsed.data.rules.map((r, index): CompiledRule => {
    const label = r.name ?? `rule ${index + 1}`;
    let pattern: MessagePattern | null = null;
    if (r.when.last_message !== undefined) {
      const compiled = compilePattern(r.when.last_message);
      if (compiled.ok) pattern = compiled.pattern;
      else problems.push(`${fileName}: rules[${index}].when.last_message (${label}): ${compiled.message}`);
    }
    const modelPattern = r.when.model ? compileGlob(r.when.model) : null;
    return { ...r, index, label, pattern, modelPattern };
  });
  return problems.length ? { ok: false, problems } : { ok: true, script: { rules } };
}

function where(path: PropertyKey[]): string {
  if (path.length === 0) return "";
  const text = path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join("");
  return `${text}: `;
}

/**
 * RE2 rather than RegExp: its matching time is linear in the text for every pattern, where a backtracking
 * engine takes exponential time on patterns such as `(a+)+$`, and a script's pattern meets request text the
 * script's author never saw. The price is RE2's syntax: no lookaround, no backreferences, refused here by name.
 */
function compilePattern(source: string): { ok: true; pattern: MessagePattern } | { ok: false; message: string } {
  let re: RE2JS;
  try {
    re = RE2JS.compile(source, RE2JS.CASE_INSENSITIVE);
  } catch (e) {
    const why = (e as Error).message.replace(/^error parsing regexp: /, "");
    const hint = /\(\?[=!<]|\\[1-9]/.test(source) ? " (matching is linear-time RE2: lookahead, lookbehind and backreferences are not supported)" : "";
    return { ok: false, message: `not a regular expression worlds can match: ${why}${hint}` };
  }
  const groups = Math.min(re.groupCount(), 9);
  return {
    ok: true,
    pattern: {
      exec(text) {
        const m = re.matcher(text.length > MAX_MATCHED_CHARS ? text.slice(0, MAX_MATCHED_CHARS) : text);
        if (!m.find()) return null;
        const out: string[] = [];
        for (let g = 0; g <= groups; g++) out.push(m.group(g) ?? "");
        return out;
      },
    },
  };
}
