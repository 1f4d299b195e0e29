// A hosted tools run, before anything is stored: the settings and tool file read with the same rules as
// `worlds tools run`, every arm generated, the --task filter applied. Any refusal names the field at fault.
import { configFlows, parseToolsConfig, ToolsConfigProblem } from "../../../core/kinds/tools/config/parse";
import { generateToolsArms, selectToolsTasks } from "../../../core/kinds/tools/run/arms";
import { toolsRubric } from "../../../core/kinds/tools/run/episode";
import { RecipeRefused } from "../../../core/kinds/tools/dials/recipes";
import { parseToolsRunPlan, TOOLS_PLAN_VERSION, type ToolsRunPlan } from "../../../core/kinds/tools/run/plan";
import type { HostedToolsRequest } from "../../../core/kinds/tools/run/request";
import { CannotGenerate } from "../../../core/kinds/tools/tasks/generate";
import { countsLine, importToolSet, ToolFileError } from "../../../core/kinds/tools/toolset";
import { canonicalJson, sha256Hex } from "../../../core/util/canonical";
import type { RubricDocument } from "../../../core/rubric/schema";

export const DEFAULT_TOOLS_CONFIG = "worlds/tools.yaml";

export interface PreparedToolsRun {
  file: string;
  plan: ToolsRunPlan;
  rubric: RubricDocument;
  hashes: { file: string; seed: string; rubric: string };
  summary: string;
}

export type PrepareToolsOutcome = { ok: true; value: PreparedToolsRun } | { ok: false; status: 400; code: string; message: string };

const refuse = (code: string, message: string): PrepareToolsOutcome => ({ ok: false, status: 400, code, message });

export async function prepareToolsRun(req: HostedToolsRequest, only: readonly string[]): Promise<PrepareToolsOutcome> {
  const file = req.config_file ?? DEFAULT_TOOLS_CONFIG;
  try {
    const config = parseToolsConfig(req.config, `tools.config (${file})`);
    const set = await importToolSet(req.file, { format: config.format, name: config.name, read: config.read, write: config.write, include: config.include, exclude: config.exclude });
    // Each refused tool is named even when the set falls as a whole: the verdict alone says nothing to mend.
    if (set.setRefusal)
      return refuse("tools_refused", `tools.file (${config.file}): ${set.setRefusal}${set.refused.length ? ` (refused: ${set.refused.map((r) => `${r.name}: ${r.reason}`).join("; ")})` : ""}`);
    const flows = configFlows(config, set, `tools.config (${file})`);
    const tasks = (await generateToolsArms(set, config, flows)).flatMap((a) => a.tasks);
    const picked = selectToolsTasks(tasks, only);
    if (!picked.ok) return refuse("unknown_task", `no task ${picked.unknown.join(", ")} in ${file} (a changed tool file or setting changes every id; 'worlds tools generate' lists them)`);
    const plan: ToolsRunPlan = { kind: "tools", version: TOOLS_PLAN_VERSION, set: { name: set.name, sha256: set.sha256 }, clock: config.clock, tasks: picked.tasks };
    // The plan is read back with the check every episode makes: a task it would refuse is refused here, before
    // a run is stored, rather than failing each episode of an accepted run.
    const stored = parseToolsRunPlan(JSON.parse(canonicalJson(plan)));
    if (!stored.ok) return refuse("unhostable_tasks", `${file}: the tasks cannot run hosted: ${stored.message}`);
    const rubric = toolsRubric(set, picked.tasks);
    const hashes = { file: set.sha256, seed: await sha256Hex(canonicalJson(plan)), rubric: await sha256Hex(canonicalJson(rubric)) };
    return { ok: true, value: { file, plan, rubric, hashes, summary: `${file}: ${picked.tasks.length} tasks on ${set.name} (${countsLine(set)})` } };
  } catch (e) {
    if (e instanceof ToolsConfigProblem) return refuse("invalid_tools_config", e.message);
    if (e instanceof ToolFileError) return refuse("invalid_tool_file", `tools.file: ${e.message}`);
    if (e instanceof CannotGenerate || e instanceof RecipeRefused) return refuse("cannot_generate", `${file}: ${e.message}`);
    throw e;
  }
}
