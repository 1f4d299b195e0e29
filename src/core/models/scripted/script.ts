// The script `worlds model serve` answers from (docs/models.md): ordered rules, the first that matches a request
// answers it. Validated with zod, with every problem named by its place in the file, so a typo is an error
// before the server starts rather than a rule that silently never matches.
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { describeTreeProblem, FILE_MAX_DEPTH, findTreeProblem } from "../../util/safe-tree";

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

const when = z.strictObject({
  provider: z.enum(["openai", "anthropic"]).optional(),
  /** The model id; * matches any run of characters. */
  model: z.string().min(1).optional(),
  /** A regular expression (JavaScript syntax, case-insensitive) searched in the last user or tool message. */
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

export interface CompiledRule extends ScriptRule {
  index: number;
  label: string;
  pattern: RegExp | null;
  modelPattern: RegExp | null;
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
    let pattern: RegExp | null = null;
    if (r.when.last_message !== undefined) {
      try {
        pattern = new RegExp(r.when.last_message, "iu");
      } catch (e) {
        problems.push(`${fileName}: rules[${index}].when.last_message: not a regular expression: ${(e as Error).message}`);
      }
    }
    const modelPattern = r.when.model ? new RegExp(`^${r.when.model.split("*").map(escapeRegExp).join(".*")}$`) : null;
    return { ...r, index, label: r.name ?? `rule ${index + 1}`, pattern, modelPattern };
  });
  return problems.length ? { ok: false, problems } : { ok: true, script: { rules } };
}

function where(path: PropertyKey[]): string {
  if (path.length === 0) return "";
  const text = path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join("");
  return `${text}: `;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
