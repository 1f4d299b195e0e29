// The data worlds ships (packs, seeds, rubrics, scenarios, examples, task families), addressed from any directory:
// by name (`pack:refunds`), or by the path a checkout of worlds would use (`packs/refunds.yaml`), which falls back
// to the installed package's own copy when the working directory has no such file. Every resolution that is not
// the user's own file is reported in words, so a run says which file it read.
import { existsSync, readdirSync, statSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { packageRoot } from "../paths";

export const BUNDLED_KINDS = ["pack", "seed", "rubric", "scenario", "example", "family"] as const;
export type BundledKind = (typeof BUNDLED_KINDS)[number];

interface KindSpec {
  /** The package folder the kind lives in. */
  dir: string;
  /** The file extension a bare name gets (none: the name is a path inside dir, or a folder). */
  ext: string | null;
  what: string;
}

const KINDS: Record<BundledKind, KindSpec> = {
  pack: { dir: "packs", ext: ".yaml", what: "starter pack" },
  seed: { dir: "seeds", ext: ".json", what: "seed" },
  rubric: { dir: "rubrics", ext: ".json", what: "rubric" },
  scenario: { dir: "scenarios", ext: ".json", what: "scenario" },
  example: { dir: "examples", ext: null, what: "example" },
  family: { dir: join("packs", "families"), ext: null, what: "task family" },
};

/** The package folders a relative path may fall back to (the first segment of the path). */
const FALLBACK_DIRS = new Set(["packs", "seeds", "rubrics", "scenarios", "examples"]);

export type Resolution =
  | {
      ok: true;
      /** The file (or folder) to read. */
      path: string;
      /** The bundled name, when the reference was one (`pack:refunds` -> refunds). */
      name: string | null;
      kind: BundledKind | null;
      /** How it was resolved, for the output; null when the reference was the user's own path. */
      note: string | null;
    }
  | { ok: false; message: string };

const NAME = /^[a-z0-9][a-z0-9._-]*$/;

/** `pack:refunds` -> ["pack", "refunds"]; anything else -> null. */
export function bundledRef(ref: string): [BundledKind, string] | null {
  const m = /^([a-z]+):(.+)$/.exec(ref);
  if (!m || !(BUNDLED_KINDS as readonly string[]).includes(m[1])) return null;
  return [m[1] as BundledKind, m[2]];
}

/** Whether a reference is `kind:name`, as a caller that passes names through (scenarios) needs to know. */
export function isBundledRef(ref: string): boolean {
  return bundledRef(ref) !== null;
}

/** The bundled names of a kind (pack names, seed names, example paths are not listed: they are a tree). */
export function bundledNames(kind: BundledKind, root = packageRoot()): string[] {
  const spec = KINDS[kind];
  const dir = join(root, spec.dir);
  if (!existsSync(dir)) return [];
  const entries = readdirSync(dir, { withFileTypes: true });
  if (kind === "family") return entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
  if (spec.ext === null) return entries.map((e) => e.name).sort();
  return entries.filter((e) => e.isFile() && e.name.endsWith(spec.ext!)).map((e) => e.name.slice(0, -spec.ext!.length)).sort();
}

/** The path of a bundled item by kind and name, checked to exist and to stay inside its folder. */
export function bundledPath(kind: BundledKind, name: string, root = packageRoot()): Resolution {
  const spec = KINDS[kind];
  const base = join(root, spec.dir);
  const parts = name.split("/");
  if (parts.some((p) => !NAME.test(p) || p === "..") || (spec.ext !== null && parts.length > 1) || (kind === "family" && parts.length > 1))
    return { ok: false, message: `'${kind}:${name}' is not a ${spec.what} name (lowercase letters, digits, dots, dashes${kind === "example" ? ", / between folders" : ""})` };
  const file = spec.ext !== null && !name.endsWith(spec.ext) ? `${name}${spec.ext}` : name;
  const path = join(base, ...file.split("/"));
  if (!path.startsWith(base + sep) || !existsSync(path)) {
    const names = bundledNames(kind, root);
    return { ok: false, message: `worlds has no ${spec.what} named '${name}'${names.length ? `; it ships ${names.join(", ")}` : ""} (in ${base})` };
  }
  if (kind === "family" ? !statSync(path).isDirectory() : !statSync(path).isFile()) return { ok: false, message: `${kind}:${name} (${path}) is not a ${kind === "family" ? "folder" : "file"}` };
  const bare = spec.ext !== null && name.endsWith(spec.ext) ? name.slice(0, -spec.ext.length) : name;
  return { ok: true, path, name: bare, kind, note: `${kind}:${name} is ${path}` };
}

/**
 * A reference as a user typed it: `kind:name` (a bundled item), an existing path (relative to cwd), or a relative
 * path under one of the package's data folders that cwd does not hold, read from the package instead. `expect`
 * refuses a name of another kind (`--tasks seed:x`).
 */
export function resolveRef(ref: string, cwd: string, expect?: readonly BundledKind[]): Resolution {
  const named = bundledRef(ref);
  if (named) {
    const [kind, name] = named;
    if (expect && !expect.includes(kind)) return { ok: false, message: `${ref}: a ${KINDS[kind].what} cannot be used here (expected ${expect.map((k) => `${k}:NAME`).join(" or ")}, or a path)` };
    return bundledPath(kind, name);
  }
  const here = resolve(cwd, ref);
  if (existsSync(here) || isAbsolute(ref)) return { ok: true, path: here, name: null, kind: null, note: null };
  const root = packageRoot();
  const bundled = resolve(root, ref);
  // Judged on the normalised path, so `packs/../package.json` is not a way out of the data folders.
  if (FALLBACK_DIRS.has(relative(root, bundled).split(sep)[0])) {
    if (existsSync(bundled)) {
      return { ok: true, path: bundled, name: null, kind: null, note: `${ref} is not in ${cwd}; using the copy bundled with worlds, ${bundled}` };
    }
  }
  return { ok: true, path: here, name: null, kind: null, note: null };
}

/**
 * The agent command with bundled references resolved: an argument `example:agents/careful.mjs`, or
 * `examples/...` that the working directory does not hold, becomes the package's file. Other arguments stand.
 */
export function resolveCommand(argv: readonly string[], cwd: string): { ok: true; argv: string[]; notes: string[] } | { ok: false; message: string } {
  const out: string[] = [];
  const notes: string[] = [];
  for (const a of argv) {
    const named = bundledRef(a);
    const fallback = !named && /^examples[\\/]/.test(a) && !existsSync(resolve(cwd, a));
    if (!named && !fallback) {
      out.push(a);
      continue;
    }
    if (named && named[0] !== "example") {
      out.push(a);
      continue;
    }
    const r = resolveRef(a, cwd, ["example"]);
    if (!r.ok) return r;
    out.push(r.path);
    if (r.note) notes.push(r.note);
  }
  return { ok: true, argv: out, notes };
}
