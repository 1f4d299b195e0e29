// Reading a tools settings document from its text, and checking it against the tool set it names. Pure, so the
// CLI (worlds/tools.yaml on disk) and the server (a hosted run's `tools.config`) refuse the same things in the
// same words; `label` is how the caller names the document (a path, or `tools.config`).
import { parse as parseYaml } from "yaml";
import { zodIssues } from "../../../world/seed/parse";
import { describeTreeProblem, FILE_MAX_DEPTH, findTreeProblem } from "../../../util/safe-tree";
import type { Flow } from "../tasks/generate";
import type { ToolSet } from "../toolset";
import { parseFlow, toolsConfig, type ToolsConfig } from "./schema";

export class ToolsConfigProblem extends Error {}

export function parseToolsConfig(text: string, label: string): ToolsConfig {
  let doc: unknown;
  try {
    doc = parseYaml(text, { maxAliasCount: 50 });
  } catch (e) {
    throw new ToolsConfigProblem(`${label}: not YAML (${(e as Error).message.split("\n")[0]})`);
  }
  const unsafe = findTreeProblem(doc, FILE_MAX_DEPTH);
  if (unsafe) throw new ToolsConfigProblem(`${label}: ${describeTreeProblem(unsafe)}`);
  const parsed = toolsConfig.safeParse(doc);
  if (!parsed.success) throw new ToolsConfigProblem(`${label}: ${zodIssues(parsed.error).map((i) => `${i.path}: ${i.message}`).join("; ")}`);
  return parsed.data;
}

/** The declared flows, each checked to name two tools the set holds and accepts. */
export function configFlows(config: ToolsConfig, set: ToolSet, label: string): Flow[] {
  const flows = config.flows.map((f) => parseFlow(f)!);
  for (const f of flows) {
    for (const name of [f.from, f.to])
      if (!set.tools.some((t) => t.name === name || t.title === name))
        throw new ToolsConfigProblem(`${label}: flows: ${f.from}.${f.field}:${f.to}.${f.param} names ${name}, which ${set.refused.some((r) => r.name === name) ? "is refused" : "the file does not hold"}`);
  }
  return flows;
}
