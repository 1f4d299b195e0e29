// OpenAPI 3.0 and 3.1 documents: one tool per chosen operation. Path and query parameters and the JSON (or form)
// body's fields become one argument object; local $refs are resolved per operation, only as deep as the rules
// read (a cycle is left as a $ref, which the rules refuse as a recursive reference); the first 2xx JSON response
// is the answer's schema (a 2xx without content answers `{}`), and the JSON responses declared for
// the failures' statuses (exactly, else their class such as 5XX, else default) shape its error bodies. GET and
// HEAD read, the rest write.
import { MAX_ANSWER_NESTING } from "../answer-schema";
import { TOOL_ERROR_STATUS, type ToolEffect } from "../definition";
import { CUT, MAX_SCHEMA_NESTING } from "../rules";
import { isObject, ToolFileError, type RawTool } from "./raw";
import { selector, type Selection } from "./select";

const METHODS = ["get", "head", "post", "put", "patch", "delete"] as const;
/** A document whose $refs expand past this many schema nodes is a reference bomb, not an API. */
const MAX_EXPANDED_NODES = 200_000;

export function looksLikeOpenApi(doc: unknown): boolean {
  return isObject(doc) && typeof doc.openapi === "string" && /^3\.[01]\./.test(doc.openapi) && isObject(doc.paths);
}

/** How many object levels deep a $ref is still expanded: past what the argument and answer rules read, a part is
 * cut (left a marked $ref), so a document whose schemas refer to each other costs what the rules look at. */
const ARGUMENT_LEVELS = MAX_SCHEMA_NESTING + 2;
const ANSWER_LEVELS = MAX_ANSWER_NESTING + 2;
/** An error body is drawn for its envelope (a type, a code, a message): objects it names deeper are left out. */
const ERROR_LEVELS = 2;

export class Resolver {
  private nodes = 0;
  /** Error responses already expanded, by their text as written: most operations declare the same one. */
  private readonly shared = new Map<string, unknown>();
  constructor(private readonly doc: Record<string, unknown>, private readonly selected: boolean) {}

  /**
   * `resolve` for a part that many operations repeat as written (an API's one error response under every
   * status of every operation): expanded once and counted once against the bound.
   */
  resolveShared(value: unknown, limit: number, answer: boolean): unknown {
    const key = `${limit}:${answer}:${JSON.stringify(value)}`;
    if (!this.shared.has(key)) this.shared.set(key, this.resolve(value, limit, [], 1, answer));
    return this.shared.get(key);
  }

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

  /**
   * A copy with every local $ref replaced by its target; a reference back into its own chain stays a $ref, and
   * one past `limit` object levels (each `properties` entry is a level) stays a $ref marked as cut. Vendor
   * extensions (`x-...`) are not schemas and are left out. In an answer (`answer`), a union that offers a scalar
   * beside references (Stripe's expandable fields: an id, or the object when asked to expand it) keeps its
   * references cut: the API answers the id unless expanded, and expanding every such field through a document
   * whose objects all refer to each other is what makes a real API's answers explode.
   */
  resolve(value: unknown, limit: number, chain: readonly string[] = [], level = 1, answer = false): unknown {
    if (++this.nodes > MAX_EXPANDED_NODES)
      throw new ToolFileError(
        `the ${this.selected ? "chosen operations'" : "document's"} $refs expand to more than ${MAX_EXPANDED_NODES} schema nodes; choose the operations you need with --own-include (e.g. 'path:/v1/refunds*', 'tag:NAME', an operationId glob) and --own-exclude`,
      );
    if (Array.isArray(value)) return value.map((v) => this.resolve(v, limit, chain, level, answer));
    if (!isObject(value)) return value;
    if (typeof value.$ref === "string") {
      const ref = value.$ref;
      if (chain.includes(ref)) return { $ref: ref };
      if (level > limit) return { $ref: ref, [CUT]: true };
      const target = this.resolve(this.lookup(ref), limit, [...chain, ref], level, answer);
      // 3.1 lets a $ref's siblings (a description) override the target's.
      const { $ref: _ref, ...siblings } = value;
      return isObject(target) ? { ...target, ...(this.resolve(siblings, limit, chain, level, answer) as Record<string, unknown>) } : target;
    }
    const out: Record<string, unknown> = Object.create(null);
    for (const [k, v] of Object.entries(value)) {
      if (k.startsWith("x-")) continue;
      if (k === "properties" && isObject(v)) {
        const props: Record<string, unknown> = Object.create(null);
        for (const [name, child] of Object.entries(v)) props[name] = this.resolve(child, limit, chain, level + 1, answer);
        out[k] = props;
      } else if (answer && (k === "anyOf" || k === "oneOf") && Array.isArray(v) && v.some(isScalarBranch)) {
        out[k] = v.map((b) => (isObject(b) && typeof b.$ref === "string" ? { $ref: b.$ref, [CUT]: true } : this.resolve(b, limit, chain, level, answer)));
      } else out[k] = this.resolve(v, limit, chain, level, answer);
    }
    return out;
  }
}

const SCALARS = new Set(["string", "integer", "number", "boolean"]);
/** A union branch that is a plain scalar (no reference, no object), as an expandable field's id is. */
const isScalarBranch = (b: unknown): boolean => isObject(b) && b.$ref === undefined && typeof b.type === "string" && SCALARS.has(b.type);

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
/** A form body's fields are named values, as a JSON object's are: an agent passes them as arguments. */
const isForm = (type: string) => /^application\/x-www-form-urlencoded\b/i.test(type);

function jsonSchemaOf(content: unknown): { schema: unknown } | { binary: string } | null {
  if (!isObject(content)) return null;
  const types = Object.keys(content);
  const json = types.find(isJson) ?? types.find(isForm);
  if (json && isObject(content[json])) return { schema: (content[json] as Record<string, unknown>).schema };
  const other = types.find((t) => /^(multipart\/|application\/octet-stream|image\/|audio\/|video\/|text\/event-stream)/i.test(t));
  return other ? { binary: other } : null;
}

/** For each failure status, the object schema of the JSON response the operation declares for it, if any. */
function errorsOf(op: Record<string, unknown>, r: Resolver): { errorSchemas?: Record<string, unknown> } {
  const responses = isObject(op.responses) ? op.responses : {};
  const find = (code: string) => Object.keys(responses).find((c) => c.toUpperCase() === code);
  const out: Record<string, unknown> = Object.create(null);
  for (const status of Object.values(TOOL_ERROR_STATUS).map(String)) {
    const key = find(status) ?? find(`${status[0]}XX`) ?? find("DEFAULT");
    const res = key === undefined ? undefined : r.resolveShared(responses[key], ERROR_LEVELS, true);
    const found = isObject(res) ? jsonSchemaOf(res.content) : null;
    if (!found || !("schema" in found)) continue;
    const s = normalise(found.schema, "writeOnly");
    if (isObject(s)) out[status] = s;
  }
  return Object.keys(out).length ? { errorSchemas: out } : {};
}

/**
 * The first 2xx JSON response's schema, as the document writes it (answer-schema.ts makes it drawable); a 2xx
 * declared without JSON content (204) is an empty answer, `{}`; no 2xx at all is no answer schema.
 */
function outputOf(op: Record<string, unknown>, r: Resolver): unknown {
  const responses = isObject(op.responses) ? op.responses : {};
  const codes = Object.keys(responses).filter((c) => /^2(\d\d|XX)$/i.test(c)).sort();
  for (const code of codes) {
    const res = r.resolve(responses[code], ANSWER_LEVELS, [], 1, true);
    const found = isObject(res) ? jsonSchemaOf(res.content) : null;
    if (found && "schema" in found && found.schema !== undefined) return normalise(found.schema, "writeOnly");
  }
  return codes.length ? { type: "object", properties: {} } : undefined;
}

/** Operations the document holds, counted without reading any of them. */
export function countOperations(doc: unknown): number {
  if (!looksLikeOpenApi(doc)) return 0;
  let n = 0;
  for (const item of Object.values((doc as Record<string, unknown>).paths as Record<string, unknown>)) if (isObject(item)) for (const m of METHODS) if (isObject(item[m])) n++;
  return n;
}

/** Every operation the selection chooses, one tool each; an operation not chosen has none of its $refs read. */
export function readOpenApi(doc: unknown, selection?: Selection): RawTool[] {
  if (!looksLikeOpenApi(doc)) throw new ToolFileError("an OpenAPI document has `openapi: 3.0.x` or `3.1.x` and a `paths` object");
  const d = doc as Record<string, unknown>;
  const pick = selector(selection, true);
  const r = new Resolver(d, pick.active);
  const tools: RawTool[] = [];
  for (const [path, rawItem] of Object.entries(d.paths as Record<string, unknown>)) {
    const item = isObject(rawItem) && typeof rawItem.$ref === "string" ? r.lookup(rawItem.$ref) : rawItem;
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      const name = toolName(path, method, op);
      const tags = Array.isArray(op.tags) ? op.tags.filter((t): t is string => typeof t === "string") : [];
      if (!pick.chosen({ names: [name, renamedOf(name)], path, method: method.toUpperCase(), tags })) continue;
      tools.push(operation(path, method, item, op, r));
    }
  }
  const unused = pick.unused();
  if (unused.length) throw new ToolFileError(`${unused.join(", ")} chose no operation in the document (filters are globs on an operationId or tool name, tag:NAME, path:/v1/x*, or GET/POST/...)`);
  return tools;
}

const toolName = (path: string, method: string, op: Record<string, unknown>) => (typeof op.operationId === "string" && op.operationId ? op.operationId : `${method}_${path}`);
/** The provider-safe spelling a name gets (rules.ts renames; here it only lets a filter name either). */
const renamedOf = (name: string) => name.replace(/[^A-Za-z0-9_-]/g, "_");

function operation(path: string, method: (typeof METHODS)[number], item: Record<string, unknown>, op: Record<string, unknown>, r: Resolver): RawTool {
  const effect: ToolEffect = method === "get" || method === "head" ? "read" : "write";
  const name = toolName(path, method, op);
  const description = [op.summary, op.description].filter((x): x is string => typeof x === "string" && x.trim() !== "").join(" ").trim();
  const byKey = new Map<string, Record<string, unknown>>();
  for (const p of [...(Array.isArray(item.parameters) ? item.parameters : []), ...(Array.isArray(op.parameters) ? op.parameters : [])]) {
    const param = r.resolve(p, ARGUMENT_LEVELS);
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
  const body = isObject(op.requestBody) ? (r.resolve(op.requestBody, ARGUMENT_LEVELS) as Record<string, unknown>) : null;
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
    outputSchema: outputOf(op, r),
    ...errorsOf(op, r),
    effect,
    effectRule: `HTTP method ${method.toUpperCase()}`,
    ...(refusal ? { refusal } : {}),
  };
}
