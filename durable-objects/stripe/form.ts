// Decoding the billing API's request parameters: application/x-www-form-urlencoded with Rack-style bracket
// nesting (metadata[k]=v, items[0][price]=x, expand[]=a), query string and body merged into one tree, and JSON
// bodies tolerated. The tree keeps integer-keyed objects as objects; params.ts turns them into arrays where a
// parameter is declared as one, so metadata[0]=x stays a metadata key.
//
// Every hash in the tree has no prototype and no key may name a prototype property: one world's body must never
// be able to reach an object another world's request reads (the isolate is shared by every world).
import { bracketed, dict, findTreeProblem, isForbiddenKey } from "../../src/core/util/safe-tree";
import type { ParamValue, Params } from "./types";

export class MalformedParams extends Error {
  constructor(message: string, readonly param?: string, readonly code?: string) {
    super(message);
  }
}

/** Levels a parameter may nest (`a[b][c]` is three). The deepest real parameters use five or six. */
export const MAX_PARAM_DEPTH = 8;

const KEY = /^([^[\]]+)((?:\[[^[\]]*\])*)$/;

export function decodeParams(query: string, body: string, contentType: string | null): Params {
  const root: Params = dict();
  decodeForm(query, root);
  const ct = (contentType ?? "").toLowerCase();
  const trimmed = body.trim();
  if (!trimmed) return root;
  if (ct.includes("application/json") || (!ct.includes("x-www-form-urlencoded") && trimmed.startsWith("{"))) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      throw new MalformedParams("Invalid request: the body is not valid JSON. Send parameters as application/x-www-form-urlencoded (or a JSON object).");
    }
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed))
      throw new MalformedParams("Invalid request: a JSON body must be an object of parameters.");
    const problem = findTreeProblem(parsed, MAX_PARAM_DEPTH);
    if (problem?.kind === "depth") throw tooDeep(bracketed(problem.path));
    if (problem?.kind === "key") throw forbidden(bracketed(problem.path));
    mergeInto(root, fromJson(parsed) as Params);
    return root;
  }
  decodeForm(body, root);
  return root;
}

function decodeComponent(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, " "));
  } catch {
    throw new MalformedParams(`Invalid request: could not decode '${s.slice(0, 60)}' (malformed percent-encoding). Parameters must be application/x-www-form-urlencoded.`);
  }
}

function tooDeep(param: string): MalformedParams {
  const shown = param.length > 120 ? `${param.slice(0, 120)}...` : param;
  return new MalformedParams(`Invalid request: parameter '${shown}' is nested more than ${MAX_PARAM_DEPTH} levels deep.`, shown.slice(0, 120), "parameter_invalid_nesting");
}

function forbidden(param: string): MalformedParams {
  return new MalformedParams(`Received unknown parameter: ${param}`, param, "parameter_unknown");
}

export function decodeForm(text: string, root: Params): void {
  if (!text) return;
  for (const pair of text.split("&")) {
    if (!pair) continue;
    const eq = pair.indexOf("=");
    const rawKey = eq >= 0 ? pair.slice(0, eq) : pair;
    const key = decodeComponent(rawKey);
    const value = decodeComponent(eq >= 0 ? pair.slice(eq + 1) : "");
    if (!key) continue;
    const m = KEY.exec(key);
    const segments = m ? [m[1], ...(m[2].match(/\[[^[\]]*\]/g) ?? []).map((s) => s.slice(1, -1))] : [key];
    if (segments.length > MAX_PARAM_DEPTH) throw tooDeep(key);
    if (segments.some(isForbiddenKey)) throw forbidden(key);
    assign(root, segments, value, key);
  }
}

function assign(node: Params, segments: string[], value: string, fullKey: string): void {
  let cur = node;
  for (let i = 0; i < segments.length; i++) {
    let seg = segments[i];
    // `[]` appends: give it the next integer key so `expand[]=a&expand[]=b` and `expand[0]=a&expand[1]=b` agree.
    if (seg === "" && i > 0) seg = String(Object.keys(cur).filter((k) => /^\d+$/.test(k)).length);
    const last = i === segments.length - 1;
    if (last) {
      if (isParams(cur[seg])) throw new MalformedParams(`Invalid request: parameter '${fullKey}' is given both as a value and as a hash.`, fullKey);
      cur[seg] = value;
      return;
    }
    const next = cur[seg];
    if (next === undefined) {
      const created: Params = dict();
      cur[seg] = created;
      cur = created;
    } else if (isParams(next)) cur = next;
    else if (next === "" ) {
      // `metadata=&metadata[a]=b`: the empty value (clear) is superseded by the nested one.
      const created: Params = dict();
      cur[seg] = created;
      cur = created;
    } else throw new MalformedParams(`Invalid request: parameter '${fullKey}' is given both as a value and as a hash.`, fullKey);
  }
}

function isParams(v: ParamValue | undefined): v is Params {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** JSON scalars become the strings a form body would carry (null = empty = unset). Depth is checked before. */
function fromJson(v: unknown): ParamValue {
  if (v === null || v === undefined) return "";
  if (Array.isArray(v)) return v.map(fromJson);
  if (typeof v === "object") {
    const out: Params = dict();
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) out[k] = fromJson(x);
    return out;
  }
  return String(v);
}

function mergeInto(into: Params, from: Params): void {
  for (const [k, v] of Object.entries(from)) {
    const cur = into[k];
    if (isParams(cur) && isParams(v)) mergeInto(cur, v);
    else into[k] = v;
  }
}
