// A failed call's body on the plain JSON surface, in the idiom of the format the team's tools came in: an OpenAI
// tools file fails as {"error": {code, message}}, an MCP tool list as a tools/call result with isError, and an
// OpenAPI document with the error body it declares for that status, or else {"status", "detail"}. The status is
// the failure code's either way. Pure: the world renders it, and tests and the plan can too.
import { canonicalJson } from "../../../util/canonical";
import { TOOL_ERROR_STATUS, type ToolErrorCode } from "../definition";
import { mcpCallResult } from "../render";
import type { ToolsWorldBlock } from "../world-block";
import { keyedDraw } from "./draw";
import { CannotMakeValue, makeValue } from "./value";

export interface ToolFailure {
  code: ToolErrorCode;
  message: string;
}

export function failureBody(block: ToolsWorldBlock, name: string, error: ToolFailure, clockUnix: number): Record<string, unknown> {
  if (block.set.format === "mcp") return mcpCallResult({ ok: false, error });
  if (block.set.format === "openai") return { error: { code: error.code, message: error.message } };
  const status = TOOL_ERROR_STATUS[error.code];
  const schema = block.definitions.find((t) => t.name === name)?.errorSchemas?.[String(status) as "503"];
  return (schema && declaredBody(block, name, schema, status, error, clockUnix)) ?? { status, detail: error.message };
}

const STATUS_FIELDS = ["status", "statusCode", "status_code", "code"];
const MESSAGE_FIELDS = ["detail", "message", "error_description", "description", "error", "title"];
const CODE_FIELDS = ["code", "error_code", "errorCode", "type"];

type Schema = Record<string, unknown>;
const typesOf = (s: Schema): unknown[] => (Array.isArray(s.type) ? s.type : [s.type]);
/** A field that takes any text of this length: no enum, const, pattern or format to break by writing ours. */
const freeText = (s: unknown, text: string): boolean =>
  typeof s === "object" && s !== null && typesOf(s as Schema).includes("string") && !["enum", "const", "pattern", "format"].some((k) => k in s) &&
  text.length >= Number((s as Schema).minLength ?? 0) && text.length <= Number((s as Schema).maxLength ?? Infinity);
const takesStatus = (s: unknown, status: number): boolean =>
  typeof s === "object" && s !== null && (typesOf(s as Schema).includes("integer") || typesOf(s as Schema).includes("number")) &&
  (!Array.isArray((s as Schema).enum) || ((s as Schema).enum as unknown[]).includes(status)) &&
  status >= Number((s as Schema).minimum ?? -Infinity) && status <= Number((s as Schema).maximum ?? Infinity);

/**
 * The declared body: drawn from its schema, then the status, the code and the message written into the fields
 * that carry them (top level, or one object level down as in {"error": {...}}). Null when no field can carry the
 * message: a body without it would hide from the agent, and from the grade, what went wrong.
 */
function declaredBody(block: ToolsWorldBlock, name: string, schema: Schema, status: number, error: ToolFailure, clockUnix: number): Record<string, unknown> | null {
  let body: Record<string, unknown>;
  try {
    body = makeValue(schema, keyedDraw(`${block.set.sha256}:${block.draw_seed}:error:${name}:${canonicalJson(error)}`), "error", clockUnix) as Record<string, unknown>;
  } catch (e) {
    if (e instanceof CannotMakeValue) return null;
    throw e;
  }
  const fill = (target: Record<string, unknown>, s: Schema): boolean => {
    const props = (typeof s.properties === "object" && s.properties !== null ? s.properties : {}) as Record<string, unknown>;
    const has = (k: string) => Object.hasOwn(props, k);
    const statusField = STATUS_FIELDS.find((k) => has(k) && takesStatus(props[k], status));
    if (statusField) target[statusField] = status;
    const codeField = CODE_FIELDS.find((k) => k !== statusField && has(k) && freeText(props[k], error.code));
    const messageField = MESSAGE_FIELDS.find((k) => k !== codeField && has(k) && freeText(props[k], error.message));
    if (codeField && messageField) target[codeField] = error.code;
    if (messageField) {
      target[messageField] = error.message;
      return true;
    }
    const nested = Object.keys(props).find((k) => typeof props[k] === "object" && props[k] !== null && typesOf(props[k] as Schema).includes("object"));
    if (!nested) return false;
    const inner = typeof target[nested] === "object" && target[nested] !== null ? (target[nested] as Record<string, unknown>) : {};
    target[nested] = inner;
    return fill(inner, props[nested] as Schema);
  };
  return fill(body, schema) ? body : null;
}
