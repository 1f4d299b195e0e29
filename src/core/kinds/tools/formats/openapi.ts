// OpenAPI 3.0 and 3.1 documents: one tool per operation. Path and query parameters and the JSON body's fields
// become one argument object; local $refs are resolved (a cycle is left as a $ref, which the rules refuse as a
// recursive reference); the first 2xx JSON response is the output schema, and the JSON responses declared for
// the failures' statuses (exactly, else their class such as 5XX, else default) shape its error bodies. GET and
// HEAD read, the rest write.
import { TOOL_ERROR_STATUS, type ToolEffect } from "../definition";
import { isObject, ToolFileError, type RawTool } from "./raw";

const METHODS = ["get", "head", "post", "put", "patch", "delete"] as const;
/** A document whose $refs expand past this many schema nodes is a reference bomb, not an API. */
const MAX_EXPANDED_NODES = 200_000;

export function looksLikeOpenApi(doc: unknown): boolean {
  return isObject(doc) && typeof doc.openapi === "string" && /^3\.[01]\./.test(doc.openapi) && isObject(doc.paths);
}

class Resolver {
  private nodes = 0;
  constructor(private readonly doc: Record<string, unknown>) {}

  lookup(ref: string): unknown {
    if (!ref.startsWith("#/")) throw new ToolFileError(`$ref '${ref}' points outside the document; only local references (#/...) are read`);
    let cur: unknown = this.doc;
    for (const raw of ref.slice(2).split("/")) {
      const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
      if (!isObject(cur) || !Object.hasOwn(cur, key)) throw new ToolFileError(`$ref '${ref}' names nothing in the document`);
      cur = cur[key];
    }
    return cur;
  }

  /** A copy with every local $ref replaced by its target; a reference back into its own chain stays a $ref. */
  resolve(value: unknown, chain: readonly string[] = []): unknown {
    if (++this.nodes > MAX_EXPANDED_NODES) throw new ToolFileError(`the document's $refs expand to more than ${MAX_EXPANDED_NODES} schema nodes`);
    if (Array.isArray(value)) return value.map((v) => this.resolve(v, chain));
    if (!isObject(value)) return value;
    if (typeof value.$ref === "string") {
      const ref = value.$ref;
      if (chain.includes(ref)) return { $ref: ref };
      const target = this.resolve(this.lookup(ref), [...chain, ref]);
      // 3.1 lets a $ref's siblings (a description) override the target's.
      const { $ref: _ref, ...siblings } = value;
      return isObject(target) ? { ...target, ...(this.resolve(siblings, chain) as Record<string, unknown>) } : target;
    }
    const out: Record<string, unknown> = Object.create(null);
    for (const [k, v] of Object.entries(value)) out[k] = this.resolve(v, chain);
    return out;
  }
}

/** 3.0's `nullable` and boolean exclusive bounds, in 3.1's spelling, so the rules read one dialect. */
function normalise(schema: unknown, drop: "readOnly" | "writeOnly"): unknown {
  if (Array.isArray(schema)) return schema.map((s) => normalise(s, drop));
  if (!isObject(schema)) return schema;
  const out: Record<string, unknown> = Object.create(null);
  for (const [k, v] of Object.entries(schema)) {
    if (k === "nullable" || k === "example" || k === "examples" || k === "xml" || k === "externalDocs" || k === "discriminator") continue;
    out[k] = k === "properties" && isObject(v) ? props(v, drop) : normalise(v, drop);
  }
  if (schema.nullable === true && typeof out.type === "string") out.type = [out.type, "null"];
  for (const [flag, bound] of [["exclusiveMinimum", "minimum"], ["exclusiveMaximum", "maximum"]] as const) {
    if (out[flag] === true && typeof out[bound] === "number") {
      out[flag] = out[bound];
      delete out[bound];
    } else if (out[flag] === false) delete out[flag];
  }
  return out;
}

function props(properties: Record<string, unknown>, drop: "readOnly" | "writeOnly"): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null);
  for (const [name, s] of Object.entries(properties)) if (!(isObject(s) && s[drop] === true)) out[name] = normalise(s, drop);
  return out;
}

const isJson = (type: string) => /^application\/([\w.+-]+\+)?json\b/i.test(type);

function jsonSchemaOf(content: unknown): { schema: unknown } | { binary: string } | null {
  if (!isObject(content)) return null;
  const types = Object.keys(content);
  const json = types.find(isJson);
  if (json && isObject(content[json])) return { schema: (content[json] as Record<string, unknown>).schema };
  const other = types.find((t) => /^(multipart\/|application\/octet-stream|image\/|audio\/|video\/|text\/event-stream)/i.test(t));
  return other ? { binary: other } : null;
}

/** For each failure status, the object schema of the JSON response the operation declares for it, if any. */
function errorsOf(op: Record<string, unknown>): { errorSchemas?: Record<string, unknown> } {
  const responses = isObject(op.responses) ? op.responses : {};
  const find = (code: string) => Object.keys(responses).find((c) => c.toUpperCase() === code);
  const out: Record<string, unknown> = Object.create(null);
  for (const status of Object.values(TOOL_ERROR_STATUS).map(String)) {
    const key = find(status) ?? find(`${status[0]}XX`) ?? find("DEFAULT");
    const res = key === undefined ? undefined : responses[key];
    const found = isObject(res) ? jsonSchemaOf(res.content) : null;
    if (!found || !("schema" in found)) continue;
    const s = normalise(found.schema, "writeOnly");
    if (isObject(s) && s.type === "object") out[status] = s;
  }
  return Object.keys(out).length ? { errorSchemas: out } : {};
}

/** `op` is already resolved (the whole path item is, once: resolving twice would unroll a cycle one more level). */
function outputOf(op: Record<string, unknown>): unknown {
  const responses = isObject(op.responses) ? op.responses : {};
  const codes = Object.keys(responses).filter((c) => /^2(\d\d|XX)$/i.test(c)).sort();
  for (const code of codes) {
    const res = responses[code];
    const found = isObject(res) ? jsonSchemaOf(res.content) : null;
    if (found && "schema" in found && found.schema !== undefined) {
      const s = normalise(found.schema, "writeOnly");
      // A tool's structured result is an object; a list endpoint's array is answered inside one.
      return isObject(s) && s.type === "object" ? s : { type: "object", properties: { data: s }, required: ["data"] };
    }
  }
  return undefined;
}

export function readOpenApi(doc: unknown): RawTool[] {
  if (!looksLikeOpenApi(doc)) throw new ToolFileError("an OpenAPI document has `openapi: 3.0.x` or `3.1.x` and a `paths` object");
  const d = doc as Record<string, unknown>;
  const r = new Resolver(d);
  const tools: RawTool[] = [];
  for (const [path, rawItem] of Object.entries(d.paths as Record<string, unknown>)) {
    const item = r.resolve(rawItem);
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      tools.push(operation(path, method, item, op));
    }
  }
  return tools;
}

function operation(path: string, method: (typeof METHODS)[number], item: Record<string, unknown>, op: Record<string, unknown>): RawTool {
  const effect: ToolEffect = method === "get" || method === "head" ? "read" : "write";
  const name = typeof op.operationId === "string" && op.operationId ? op.operationId : `${method}_${path}`;
  const description = [op.summary, op.description].filter((x): x is string => typeof x === "string" && x.trim() !== "").join(" ").trim();
  const byKey = new Map<string, Record<string, unknown>>();
  for (const p of [...(Array.isArray(item.parameters) ? item.parameters : []), ...(Array.isArray(op.parameters) ? op.parameters : [])]) {
    const param = p;
    if (isObject(param) && typeof param.name === "string" && typeof param.in === "string") byKey.set(`${param.in}:${param.name}`, param);
  }
  const properties: Record<string, unknown> = Object.create(null);
  const required: string[] = [];
  const paramNames = new Set<string>();
  let refusal: string | undefined;
  for (const param of byKey.values()) {
    if (param.in !== "path" && param.in !== "query") continue;
    const pname = String(param.name);
    paramNames.add(pname);
    const fromContent = isObject(param.content) ? jsonSchemaOf(param.content) : null;
    const schema = param.schema ?? (fromContent && "schema" in fromContent ? fromContent.schema : { type: "string" });
    const s = normalise(schema, "readOnly");
    properties[pname] = isObject(s) && typeof param.description === "string" && s.description === undefined ? { ...s, description: param.description } : s;
    if (param.in === "path" || param.required === true) required.push(pname);
  }
  const body = isObject(op.requestBody) ? op.requestBody : null;
  if (body) {
    const found = jsonSchemaOf(body.content);
    if (found && "binary" in found) refusal = `it takes a file or a stream (${found.binary} body)`;
    else if (found && "schema" in found) {
      const s = normalise(found.schema, "readOnly");
      if (isObject(s) && s.type === "object" && isObject(s.properties)) {
        for (const [field, fs] of Object.entries(s.properties)) {
          if (paramNames.has(field)) refusal ??= `the ${byKey.has(`path:${field}`) ? "path" : "query"} parameter '${field}' has the same name as a field of the request body`;
          properties[field] = fs;
        }
        if (Array.isArray(s.required) && body.required !== false) for (const f of s.required) if (typeof f === "string" && !required.includes(f)) required.push(f);
      } else if (s !== undefined) {
        properties.body = s;
        if (body.required === true) required.push("body");
      }
    }
  }
  return {
    name,
    description,
    inputSchema: { type: "object", properties, ...(required.length ? { required } : {}), additionalProperties: false },
    outputSchema: outputOf(op),
    ...errorsOf(op),
    effect,
    ...(refusal ? { refusal } : {}),
  };
}
