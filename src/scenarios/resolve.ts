// A world's scenario as a request names it: nothing, a library name, or an inline document. Resolved and
// validated before any world exists, with errors that say what the library holds or which field is wrong.
import { parseScenario, type ScenarioDocument } from "../core/kinds/account/scenario/schema";
import type { SeedIssue } from "../core/world/seed/parse";
import { BUNDLED_SCENARIOS } from "./bundled";

export type ScenarioResolution =
  | { ok: true; scenario: ScenarioDocument | null }
  | { ok: false; status: 400 | 404; code: "scenario_not_found" | "invalid_scenario"; message: string; issues?: SeedIssue[] };

export function scenarioNames(): string[] {
  return Object.keys(BUNDLED_SCENARIOS).sort();
}

export function resolveScenario(ref: unknown): ScenarioResolution {
  if (ref === null || ref === undefined) return { ok: true, scenario: null };
  if (typeof ref === "string") {
    const doc = Object.hasOwn(BUNDLED_SCENARIOS, ref) ? BUNDLED_SCENARIOS[ref] : undefined;
    if (doc === undefined)
      return {
        ok: false,
        status: 404,
        code: "scenario_not_found",
        message: `No scenario named '${ref}'. The library holds ${scenarioNames().join(", ")}; or send a scenario document inline.`,
      };
    return checked(doc, `library scenario '${ref}'`);
  }
  return checked(ref, "the scenario document");
}

function checked(doc: unknown, what: string): ScenarioResolution {
  const parsed = parseScenario(doc);
  if (parsed.ok) return { ok: true, scenario: parsed.scenario };
  return { ok: false, status: 400, code: "invalid_scenario", message: `${what} has ${parsed.issues.length} problem(s): ${parsed.issues.slice(0, 3).map((i) => `${i.path}: ${i.message}`).join("; ")}.`, issues: parsed.issues };
}

/** Thrown by createWorld for a scenario its caller did not resolve first. */
export class ScenarioRefused extends Error {
  constructor(readonly resolution: Extract<ScenarioResolution, { ok: false }>) {
    super(resolution.message);
  }
}

export function requireScenario(ref: unknown): ScenarioDocument | null {
  const r = resolveScenario(ref);
  if (!r.ok) throw new ScenarioRefused(r);
  return r.scenario;
}
