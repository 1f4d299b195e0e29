// A tool surface's JSON body, read the way every boundary reads one: bounded in size before it is parsed, then
// refused when it nests too deep or carries a key that reaches into a prototype. Each surface words the refusal in
// its own idiom (a JSON error object, a JSON-RPC error).
import { readBodyLimited, TWIN_BODY_LIMIT } from "../http/limits";
import { BODY_MAX_DEPTH, describeTreeProblem, findTreeProblem } from "../core/util/safe-tree";

export type JsonRead = { ok: true; value: unknown } | { ok: false; problem: "too_large" | "invalid_json" | "unsafe"; message: string };

export async function readJsonBody(req: Request): Promise<JsonRead> {
  const raw = await readBodyLimited(req, TWIN_BODY_LIMIT);
  if (raw === null) return { ok: false, problem: "too_large", message: `The request body is larger than the ${TWIN_BODY_LIMIT / (1024 * 1024)} MB a tool call accepts.` };
  return parseJson(raw, "the request body");
}

/** Also for a tool's arguments sent as a JSON string (what a model's tool call carries). */
export function parseJson(raw: string, what: string): JsonRead {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (e) {
    return { ok: false, problem: "invalid_json", message: `${what} is not valid JSON: ${(e as Error).message}` };
  }
  const unsafe = findTreeProblem(value, BODY_MAX_DEPTH);
  if (unsafe) return { ok: false, problem: "unsafe", message: `${what} is refused: ${describeTreeProblem(unsafe)}.` };
  return { ok: true, value };
}
