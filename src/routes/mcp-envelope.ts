// The JSON-RPC 2.0 envelope of one MCP message, checked before the SDK sees it, so that each way of getting it wrong
// answers the code JSON-RPC assigns it in one line a client can act on: valid JSON that is no request (a wrong
// version, params that are not a structure, a list where one message belongs) is -32600, and a tools/call whose
// name or arguments have the wrong type is -32602. The SDK's own checks would answer the second with its schema
// library's dump of every issue.

export type EnvelopeProblem = { code: -32600 | -32602; message: string; id: string | number | null };

const kindOf = (v: unknown): string => (v === null ? "null" : Array.isArray(v) ? "a list" : typeof v);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** What is wrong with the parsed body as one MCP message, or null when the SDK may have it. */
export function envelopeProblem(body: unknown): EnvelopeProblem | null {
  const invalid = (message: string, id: string | number | null = null): EnvelopeProblem => ({ code: -32600, message: `Invalid Request: ${message}`, id });
  if (Array.isArray(body)) return invalid("one JSON-RPC message per POST; batches are not part of MCP since protocol 2025-06-18.");
  if (!isObject(body)) return invalid("the body must be a JSON-RPC 2.0 object.");
  const id = typeof body.id === "string" || typeof body.id === "number" ? body.id : null;
  if (body.jsonrpc !== "2.0") return invalid(`"jsonrpc" must be "2.0" (got ${JSON.stringify(body.jsonrpc) ?? "nothing"}).`, id);
  if ("id" in body && body.id !== null && id === null) return invalid('"id" must be a string or a number.');
  if ("method" in body) {
    if (typeof body.method !== "string" || body.method === "") return invalid('"method" must be a non-empty string.', id);
    if ("params" in body && !isObject(body.params)) return invalid('"params" must be an object.', id);
  } else if (!("result" in body) && !("error" in body)) {
    return invalid('a request needs a "method" (a response, a "result" or an "error").', id);
  }
  if (body.method === "tools/call" && id !== null) {
    const params = isObject(body.params) ? body.params : {};
    const badParams = (message: string): EnvelopeProblem => ({ code: -32602, message: `Invalid params: ${message}`, id });
    if (typeof params.name !== "string" || params.name === "") return badParams('tools/call needs "name", the tool\'s name as a string.');
    if (params.name.length > 256) return badParams(`no tool has a name of ${params.name.length} characters (256 at most).`);
    if ("arguments" in params && params.arguments !== undefined && !isObject(params.arguments))
      return badParams(`"arguments" must be an object of the tool's parameters (got ${kindOf(params.arguments)}).`);
  }
  return null;
}
