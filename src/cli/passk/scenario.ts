// --scenario S / the file's scenario: a library name or a .json/.yaml file (read here; a path in the tasks file
// resolves against the file's directory). Either is checked against the library and the scenario schema here,
// before any world exists, so a misspelt name is a configuration error (exit 2) that `tasks validate` finds,
// not a world the server refuses to create (exit 3).
import { existsSync, readFileSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import { parse as parseYaml } from "yaml";
import { resolveScenario, scenarioNames } from "../../scenarios/resolve";

export type ScenarioArg = { ok: true; value: string | Record<string, unknown> } | { ok: false; message: string };

export function loadScenarioArg(ref: string, tasksFile: string): ScenarioArg {
  const loaded = readScenarioArg(ref, tasksFile);
  if (!loaded.ok) return loaded;
  const checked = resolveScenario(loaded.value);
  if (checked.ok) return loaded;
  if (typeof loaded.value === "string") return { ok: false, message: `no scenario named '${ref}': the library holds ${scenarioNames().join(", ")}, or name a .json or .yaml scenario file` };
  return { ok: false, message: `scenario file ${ref}: ${checked.message}` };
}

/** For the tasks file's `scenario:`: the problem, or null. */
export function scenarioProblem(ref: string, tasksFile: string): string | null {
  const r = loadScenarioArg(ref, tasksFile);
  return r.ok ? null : r.message;
}

function readScenarioArg(ref: string, tasksFile: string): ScenarioArg {
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
