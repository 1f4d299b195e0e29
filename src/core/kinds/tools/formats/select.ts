// Choosing the operations of a large document (--own-include / --own-exclude, `include:` and `exclude:` in
// worlds/tools.yaml), decided on what the document says of each operation before any $ref is expanded, so a
// 400-operation API costs only what is chosen. A filter is a glob (`*` any run of characters, `?` one) on the
// operationId or tool name, `tag:NAME`, `path:/v1/refunds*`, or an HTTP method (GET, POST...).
import { ToolFileError } from "./raw";

export interface Selection {
  include: readonly string[];
  exclude: readonly string[];
}

/** What a filter is matched against: a name always; a path, method and tags for an OpenAPI operation. */
export interface Candidate {
  names: readonly string[];
  path?: string;
  method?: string;
  tags?: readonly string[];
}

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]);

type Filter = { kind: "name" | "tag" | "path"; glob: RegExp; text: string } | { kind: "method"; method: string; text: string };

function globOf(pattern: string): RegExp {
  const body = [...pattern].map((c) => (c === "*" ? ".*" : c === "?" ? "." : c.replace(/[\\^$.+()[\]{}|]/g, "\\$&"))).join("");
  return new RegExp(`^${body}$`, "u");
}

function filterOf(text: string, openapi: boolean): Filter {
  const t = text.trim();
  if (!t) throw new ToolFileError("an --own-include/--own-exclude filter is empty");
  if (METHODS.has(t)) {
    if (!openapi) throw new ToolFileError(`the method filter '${t}' applies to OpenAPI documents only (filter this file's tools by name)`);
    return { kind: "method", method: t, text: t };
  }
  const m = /^(tag|path):(.+)$/.exec(t);
  if (m) {
    if (!openapi) throw new ToolFileError(`the filter '${t}' applies to OpenAPI documents only (filter this file's tools by name)`);
    return { kind: m[1] as "tag" | "path", glob: globOf(m[2]), text: t };
  }
  return { kind: "name", glob: globOf(t), text: t };
}

function matches(f: Filter, c: Candidate): boolean {
  if (f.kind === "method") return c.method === f.method;
  if (f.kind === "tag") return (c.tags ?? []).some((x) => f.glob.test(x));
  if (f.kind === "path") return c.path !== undefined && f.glob.test(c.path);
  return c.names.some((n) => f.glob.test(n));
}

export interface Selector {
  /** Whether the operation or tool is chosen. */
  chosen(c: Candidate): boolean;
  /** Filters that chose nothing (worth a line: a typo in a filter is otherwise silent). */
  unused(): string[];
  active: boolean;
}

/**
 * Method filters narrow the rest (`GET` with `path:/v1/refunds*` is the refunds' reads); the other includes are
 * alternatives (any one chooses); an exclude wins over every include.
 */
export function selector(sel: Selection | undefined, openapi: boolean): Selector {
  const include = (sel?.include ?? []).map((t) => filterOf(t, openapi));
  const exclude = (sel?.exclude ?? []).map((t) => filterOf(t, openapi));
  const methods = include.filter((f) => f.kind === "method");
  const patterns = include.filter((f) => f.kind !== "method");
  const used = new Set<string>();
  return {
    active: include.length + exclude.length > 0,
    chosen(c) {
      const m = methods.filter((f) => matches(f, c));
      const p = patterns.filter((f) => matches(f, c));
      if (methods.length && !m.length) return false;
      if (patterns.length && !p.length) return false;
      const x = exclude.filter((f) => matches(f, c));
      for (const f of x) used.add(`exclude:${f.text}`);
      if (x.length) return false;
      for (const f of [...m, ...p]) used.add(`include:${f.text}`);
      return true;
    },
    unused: () => [...include.map((f) => `include:${f.text}`), ...exclude.map((f) => `exclude:${f.text}`)].filter((k) => !used.has(k)).map((k) => k.replace(/^(include|exclude):/, "--own-$1 ")),
  };
}
