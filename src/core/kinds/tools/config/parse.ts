// Reading a tools settings document from its text, and checking it against the tool set it names. Pure, so the
// CLI (worlds/tools.yaml on disk) and the server (a hosted run's `tools.config`) refuse the same things in the
// same words; `label` is how the caller names the document (a path, or `tools.config`).
import { parse as parseYaml } from "yaml";
import { zodIssues } from "../../../world/seed/parse";
import { describeTreeProblem, FILE_MAX_DEPTH, findTreeProblem } from "../../../util/safe-tree";
import type { Flow } from "../tasks/generate";
import { isObject } from "../formats/raw";
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

/**
 * The declared flows, each checked against the set: both tools held and usable, the field one the first tool's
 * answer has (a path such as `data[].id` into a list), the parameter one the second takes. The intents are
 * checked to name tools of the set too: a flow or intent that fits nothing would make tasks nobody can pass.
 */
export function configFlows(config: ToolsConfig, set: ToolSet, label: string): Flow[] {
  const flows = config.flows.map((f) => parseFlow(f)!);
  const toolOf = (name: string) => set.tools.find((t) => t.name === name || t.title === name);
  for (const f of flows) {
    const text = `${f.from}.${f.field}:${f.to}.${f.param}`;
    for (const name of [f.from, f.to])
      if (!toolOf(name))
        throw new ToolsConfigProblem(`${label}: flows: ${text} names ${name}, which ${set.refused.some((r) => r.name === name || r.name.endsWith(`(was ${name})`)) ? "is refused" : `the set does not hold (its tools: ${names(set)})`}`);
    const from = toolOf(f.from)!;
    const to = toolOf(f.to)!;
    if (from.outputSchema) {
      const fields = answerFields(from.outputSchema);
      if (!fields.includes(f.field)) throw new ToolsConfigProblem(`${label}: flows: ${text}: ${from.name}'s answer has no field ${f.field} (its fields: ${listed(fields)})`);
    }
    const params = Object.keys(to.inputSchema.properties ?? {});
    if (!params.includes(f.param)) throw new ToolsConfigProblem(`${label}: flows: ${text}: ${to.name} takes no parameter ${f.param} (its parameters: ${listed(params)})`);
  }
  for (const name of Object.keys(config.intents))
    if (!toolOf(name)) throw new ToolsConfigProblem(`${label}: intents: ${name} is no usable tool of the set (its tools: ${names(set)})`);
  return flows;
}

const names = (set: ToolSet) => listed(set.tools.map((t) => t.name));
const listed = (xs: string[]) => (xs.length ? `${xs.slice(0, 12).join(", ")}${xs.length > 12 ? `, and ${xs.length - 12} more` : ""}` : "none");

/** The paths of an answer's scalar fields, as a flow names them: `id`, `order.id`, `data[].id`. */
export function answerFields(schema: Record<string, unknown>, prefix = "", depth = 0): string[] {
  const out: string[] = [];
  const props = isObject(schema.properties) ? schema.properties : {};
  for (const [k, v] of Object.entries(props)) {
    if (!isObject(v) || depth > 6) continue;
    const items = isObject(v.items) ? v.items : null;
    if (isObject(v.properties)) out.push(...answerFields(v, `${prefix}${k}.`, depth + 1));
    else if (items && isObject(items.properties)) out.push(...answerFields(items, `${prefix}${k}[].`, depth + 1));
    else if (!items) out.push(`${prefix}${k}`);
  }
  return out;
}
