// `worlds tools generate`: the tasks of every arm as JSON lines under tasks/ beside the settings, each row the
// task's id, request, tool block and expected end, so a team can read exactly what is checked.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { openAiTool } from "../../core/kinds/tools/render";
import type { ToolsTask } from "../../core/kinds/tools/tasks/generate";
import { generateToolsArms } from "../../core/kinds/tools/run/arms";
import type { LoadedTools } from "./load";

export interface GeneratedArm {
  arm: ToolsTask["arm"];
  path: string;
  tasks: ToolsTask[];
}

export async function generateArms(t: LoadedTools): Promise<GeneratedArm[]> {
  const arms = await generateToolsArms(t.set, t.config, t.flows);
  return arms.map((a) => ({ ...a, path: join(dirname(t.configPath), "tasks", `${a.arm}.jsonl`) }));
}

/** One row of tasks/<arm>.jsonl: what the agent gets (id, request, tools) and what is checked (expected). */
export function taskRow(task: ToolsTask): Record<string, unknown> {
  return { id: task.id, arm: task.arm, ...(task.dial ? { dial: task.dial } : {}), seed: task.seed, request: task.request, ...(task.history ? { history: task.history } : {}), tools: task.world.definitions.map(openAiTool), expected: task.expected, world: task.world };
}

export function writeArms(arms: GeneratedArm[]): void {
  for (const a of arms) {
    mkdirSync(dirname(a.path), { recursive: true });
    writeFileSync(a.path, a.tasks.map((t) => JSON.stringify(taskRow(t))).join("\n") + "\n");
  }
}
