// Every arm a tools settings document asks for, generated from the imported set: the one place that turns
// settings into tasks, for `worlds tools generate|run` and for hosted tools runs alike.
import type { ToolsConfig } from "../config/schema";
import { generateMeasure, type Measure } from "../dials/recipes";
import { generateTasks, type Flow, type ToolsTask } from "../tasks/generate";
import type { ToolSet } from "../toolset";

export interface ToolsArm {
  arm: ToolsTask["arm"];
  tasks: ToolsTask[];
}

export async function generateToolsArms(set: ToolSet, config: ToolsConfig, flows: Flow[]): Promise<ToolsArm[]> {
  const clockUnix = Math.floor(Date.parse(config.clock) / 1000);
  if (config.measure)
    return (await generateMeasure(set, { measure: config.measure as Measure, count: config.tasks_per_arm, seed: config.seed, clockUnix, intents: config.intents, flows })).map((a) => ({ arm: a.arm, tasks: a.tasks }));
  const out: ToolsArm[] = [];
  for (const arm of config.arms) {
    out.push({ arm, tasks: await generateTasks(set, { arm, count: config.tasks_per_arm, seed: config.seed, clockUnix, intents: config.intents, flows }) });
  }
  return out;
}

/** The tasks a `--task` filter keeps, or the ids it names that no arm holds. */
export function selectToolsTasks(tasks: ToolsTask[], only: readonly string[]): { ok: true; tasks: ToolsTask[] } | { ok: false; unknown: string[] } {
  if (!only.length) return { ok: true, tasks };
  const unknown = only.filter((id) => !tasks.some((x) => x.id === id));
  if (unknown.length) return { ok: false, unknown };
  return { ok: true, tasks: tasks.filter((x) => only.includes(x.id)) };
}
