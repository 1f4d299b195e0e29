// --scenario S / the file's scenario: a library name the server resolves, or a .json/.yaml file (read here;
// a path in the tasks file resolves against the file's directory).
import { existsSync, readFileSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import { parse as parseYaml } from "yaml";

export type ScenarioArg = { ok: true; value: string | Record<string, unknown> } | { ok: false; message: string };

export function loadScenarioArg(ref: string, tasksFile: string): ScenarioArg {
  if (!/\.(json|ya?ml)$/i.test(ref)) return { ok: true, value: ref };
  const candidates = isAbsolute(ref) ? [ref] : [ref, join(dirname(tasksFile), ref)];
  const path = candidates.find((p) => existsSync(p));
  if (!path) return { ok: false, message: `scenario file ${ref} does not exist (looked in ${candidates.join(" and ")})` };
  try {
    const text = readFileSync(path, "utf8");
    const value = /\.json$/i.test(path) ? JSON.parse(text) : parseYaml(text);
    if (!value || typeof value !== "object" || Array.isArray(value)) return { ok: false, message: `scenario file ${path} must hold an object` };
    return { ok: true, value: value as Record<string, unknown> };
  } catch (e) {
    return { ok: false, message: `scenario file ${path} cannot be parsed: ${(e as Error).message}` };
  }
}
