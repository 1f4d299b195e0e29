// The scenario a world was created with, as stored in its meta at init. The admin API and createWorld resolve
// library names and validate documents before a world exists; this re-checks what storage holds.
import { parseScenario, type ScenarioDocument } from "../../src/core/kinds/account/scenario/schema";

export function storedScenario(raw: string | null): ScenarioDocument | null {
  if (raw === null || raw === "" || raw === "null") return null;
  const parsed = parseScenario(JSON.parse(raw));
  if (!parsed.ok) {
    const first = parsed.issues[0];
    throw new Error(`this world's scenario is not a valid scenario document (${first.path}: ${first.message}); create the world with a library name or a valid document`);
  }
  return parsed.scenario;
}
