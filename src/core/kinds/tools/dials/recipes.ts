// The recipes a team's tools can be measured with: each a list of dials, every one at all the levels the set
// reaches (first-look takes one dial's first and top level only). A recipe is refused when it needs a dial the set
// does not reach, with that dial's reason; `custom` names its dials itself.
import type { Flow, ToolsTask } from "../tasks/generate";
import type { ToolSet } from "../toolset";
import { dialReach, levelLabel, type DialName } from "./catalog";
import { generateDialArm } from "./generate";
import { RECIPES, type RecipeName } from "./recipe-names";

export { RECIPES, RECIPE_NAMES, type RecipeName } from "./recipe-names";

export interface Measure {
  preset: RecipeName | "custom";
  dials: DialName[];
}

export class RecipeRefused extends Error {}

export interface MeasureArm {
  dial: DialName;
  level: number;
}

/** The arms a recipe makes on this set, in order: each dial's levels, first level first. */
export function measureArms(set: ToolSet, flows: readonly Flow[], m: Measure): MeasureArm[] {
  const reach = dialReach(set, flows);
  const wanted: readonly DialName[] = m.preset === "custom" ? m.dials : RECIPES[m.preset].dials;
  if (!wanted.length) throw new RecipeRefused("measure: custom names no dial: list them under measure.dials");
  const reached = wanted.filter((d) => reach.find((r) => r.dial === d)?.levels);
  const missing = wanted.filter((d) => !reached.includes(d)).map((d) => `${d} (${reach.find((r) => r.dial === d)!.unavailable})`);
  const any = m.preset !== "custom" && RECIPES[m.preset].any;
  if ((!any && missing.length) || !reached.length) throw new RecipeRefused(`measure: ${m.preset} needs ${missing.length === 1 ? "a dial" : "dials"} this set does not reach: ${missing.join("; ")}`);
  const chosen = m.preset === "first-look" ? reached.slice(0, 1) : reached;
  return chosen.flatMap((dial) => {
    const levels = reach.find((r) => r.dial === dial)!.levels!;
    const used = m.preset === "first-look" ? [levels[0], levels[levels.length - 1]] : levels;
    return used.map((level) => ({ dial, level }));
  });
}

/** `depth at 1 and 2, 10 tasks each` */
export function armsLine(arms: MeasureArm[], perArm: number): string {
  const by = new Map<DialName, string[]>();
  for (const a of arms) by.set(a.dial, [...(by.get(a.dial) ?? []), levelLabel(a.dial, a.level)]);
  const parts = [...by].map(([d, ls]) => `${d} at ${ls.length > 1 ? `${ls.slice(0, -1).join(", ")} and ${ls.at(-1)}` : ls[0]}`);
  return `${parts.join("; ")}, ${perArm} task${perArm === 1 ? "" : "s"} each`;
}

export interface DialArmTasks extends MeasureArm {
  arm: string;
  tasks: ToolsTask[];
}

export async function generateMeasure(set: ToolSet, o: { measure: Measure; count: number; seed: number; clockUnix: number; intents: Record<string, string>; flows: Flow[] }): Promise<DialArmTasks[]> {
  const out: DialArmTasks[] = [];
  for (const a of measureArms(set, o.flows, o.measure)) {
    const tasks = await generateDialArm(set, { ...a, count: o.count, seed: o.seed, clockUnix: o.clockUnix, intents: o.intents, flows: o.flows });
    out.push({ ...a, arm: tasks[0]?.arm ?? `${a.dial}-${a.level}`, tasks });
  }
  return out;
}
