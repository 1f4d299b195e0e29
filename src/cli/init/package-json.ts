// A Node project gets worlds as a devDependency at the exact version that wrote its crash test, so CI's `npm ci`
// installs the same worlds and `npx worlds` runs it. A project without a package.json is left alone (its workflow
// runs the pinned version through npx instead, workflow.ts).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";

export const PACKAGE_JSON = "package.json";
const DEPENDENCY_FIELDS = ["dependencies", "devDependencies", "optionalDependencies", "peerDependencies"] as const;
const manifestSchema = z.looseObject(Object.fromEntries(DEPENDENCY_FIELDS.map((f) => [f, z.record(z.string(), z.string()).optional()])));

export type PackageJsonPlan =
  /** No package.json: not a Node project. */
  | { kind: "none" }
  /** worlds is a dependency already, in this field with this spec: left as it is. */
  | { kind: "present"; field: string; spec: string }
  /** The package.json text with worlds added to devDependencies. */
  | { kind: "add"; path: string; text: string };

export class PackageJsonError extends Error {}

export function planPackageJson(cwd: string, version: string): PackageJsonPlan {
  const path = join(cwd, PACKAGE_JSON);
  if (!existsSync(path)) return { kind: "none" };
  const text = readFileSync(path, "utf8");
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new PackageJsonError(`${PACKAGE_JSON} is not valid JSON (${(e as Error).message}); fix it, and init adds worlds to its devDependencies`);
  }
  const parsed = manifestSchema.safeParse(raw);
  if (!parsed.success || raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    const issue = parsed.success ? { path: [], message: "not an object" } : parsed.error.issues[0];
    throw new PackageJsonError(`${PACKAGE_JSON}: ${issue.path.join(".") || "the document"}: ${issue.message}`);
  }
  for (const field of DEPENDENCY_FIELDS) {
    const spec = parsed.data[field]?.worlds;
    if (spec !== undefined) return { kind: "present", field, spec };
  }
  const manifest = raw as Record<string, unknown>;
  const dev = { ...(parsed.data.devDependencies ?? {}), worlds: version };
  // Sorted by name, as npm writes them.
  manifest.devDependencies = Object.fromEntries(Object.entries(dev).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const indent = /^[ \t]+(?=")/m.exec(text)?.[0] ?? "  ";
  return { kind: "add", path, text: JSON.stringify(manifest, null, indent) + (text.endsWith("\n") || text === "" ? "\n" : "") };
}
