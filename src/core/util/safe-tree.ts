// One rule for every tree that comes from outside (request bodies, form keys, files, webhook payloads): keys
// that reach into an object's prototype are refused, and nesting is bounded. Keeping the rule here means each
// boundary only chooses its own error shape, never its own idea of what is dangerous.

/** Key segments that would address an object's prototype chain instead of an own property. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

export function isForbiddenKey(key: string): boolean {
  return FORBIDDEN_KEYS.has(key);
}

/** An object with no prototype: a user-chosen key can only ever be an own property of it. */
export function dict<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/** How deep a request body may nest. The real APIs use a handful of levels; 32 leaves room for any honest body. */
export const BODY_MAX_DEPTH = 32;
/** Files (seeds, tasks, tool definitions) nest deeper than bodies, e.g. JSON Schemas inside tool definitions. */
export const FILE_MAX_DEPTH = 64;

/** Where a problem sits: object keys as strings, array indexes as numbers (so each format can write its own path). */
export type TreePath = Array<string | number>;

export type TreeProblem =
  | { kind: "depth"; path: TreePath; limit: number }
  | { kind: "key"; path: TreePath; key: string };

interface Frame {
  value: unknown;
  depth: number;
  key: string | number | null;
  parent: Frame | null;
}

function pathOf(frame: Frame | null): TreePath {
  const out: TreePath = [];
  for (let f = frame; f && f.key !== null; f = f.parent) out.push(f.key);
  return out.reverse();
}

/**
 * The first forbidden key or over-deep container in `value`, in document order, found without recursion (an
 * attacker's 100,000-level body must not exhaust the stack of the code that checks it). Depth 1 is the root.
 */
export function findTreeProblem(value: unknown, maxDepth: number): TreeProblem | null {
  const stack: Frame[] = [{ value, depth: 1, key: null, parent: null }];
  while (stack.length) {
    const frame = stack.pop() as Frame;
    const v = frame.value;
    if (v === null || typeof v !== "object") continue;
    if (frame.depth > maxDepth) return { kind: "depth", path: pathOf(frame), limit: maxDepth };
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) {
        const child: unknown = v[i];
        if (child !== null && typeof child === "object") stack.push({ value: child, depth: frame.depth + 1, key: i, parent: frame });
      }
      continue;
    }
    const keys = Object.keys(v);
    for (const k of keys) if (isForbiddenKey(k)) return { kind: "key", path: [...pathOf(frame), k], key: k };
    for (let i = keys.length - 1; i >= 0; i--) {
      const child = (v as Record<string, unknown>)[keys[i]];
      if (child !== null && typeof child === "object") stack.push({ value: child, depth: frame.depth + 1, key: keys[i], parent: frame });
    }
  }
  return null;
}

/** A problem in words, with the path written the way the caller's format writes paths. */
export function describeTreeProblem(p: TreeProblem, writePath: (path: TreePath) => string = (path) => path.join(".")): string {
  const at = (path: TreePath) => (path.length ? writePath(path) : "the top level");
  if (p.kind === "depth") return `${at(p.path)} is nested deeper than ${p.limit} levels`;
  return `'${p.key}' is not allowed as a key (in ${at(p.path.slice(0, -1))}): it names a built-in property of every object`;
}

/** A path in bracket form (`metadata[a][b]`), as form-encoded APIs name parameters. */
export function bracketed(path: TreePath): string {
  return path.map((p, i) => (i === 0 ? p : `[${p}]`)).join("");
}
