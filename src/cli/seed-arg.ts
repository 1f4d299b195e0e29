// `--seed S`: a seed .json file (read and checked here, so a typo names the file and path) or a seed name the
// server resolves (bundled, or its WORLDS_SEEDS_DIR).
import { existsSync, readFileSync } from "node:fs";
import { parseSeed } from "../core/world/seed/parse";

export class SeedArgError extends Error {}

export function loadSeedArg(arg: string): string | Record<string, unknown> {
  if (!arg.endsWith(".json")) return arg;
  if (!existsSync(arg)) throw new SeedArgError(`seed file ${arg} does not exist.`);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(arg, "utf8"));
  } catch (e) {
    throw new SeedArgError(`seed file ${arg} is not valid JSON: ${(e as Error).message}`);
  }
  const parsed = parseSeed(json);
  if (!parsed.ok) {
    const lines = parsed.issues.slice(0, 10).map((i) => `  ${i.path}: ${i.message}`);
    throw new SeedArgError(`seed file ${arg} has ${parsed.issues.length} problem(s):\n${lines.join("\n")}`);
  }
  return json as Record<string, unknown>;
}
