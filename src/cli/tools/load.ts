// Reading worlds/tools.yaml and the tool file it names, with errors that name the file and the field.
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { parse as parseYaml } from "yaml";
import { zodIssues } from "../../core/seed/parse";
import { describeTreeProblem, FILE_MAX_DEPTH, findTreeProblem } from "../../core/util/safe-tree";
import { parseFlow, toolsConfig, type ToolsConfig } from "../../core/tools/config/schema";
import { importToolSet, ToolFileError, type ToolSet } from "../../core/tools/toolset";
import type { Flow } from "../../core/tools/tasks/generate";

export const DEFAULT_CONFIG = "worlds/tools.yaml";

export class ToolsConfigError extends Error {}

export interface LoadedTools {
  configPath: string;
  config: ToolsConfig;
  filePath: string;
  set: ToolSet;
  flows: Flow[];
}

export function readConfig(path: string): ToolsConfig {
  if (!existsSync(path)) throw new ToolsConfigError(`${path}: no such file (write one with 'worlds tools init --own-file <your tool file>')`);
  let doc: unknown;
  try {
    doc = parseYaml(readFileSync(path, "utf8"), { maxAliasCount: 50 });
  } catch (e) {
    throw new ToolsConfigError(`${path}: not YAML (${(e as Error).message.split("\n")[0]})`);
  }
  const unsafe = findTreeProblem(doc, FILE_MAX_DEPTH);
  if (unsafe) throw new ToolsConfigError(`${path}: ${describeTreeProblem(unsafe)}`);
  const parsed = toolsConfig.safeParse(doc);
  if (!parsed.success) throw new ToolsConfigError(`${path}: ${zodIssues(parsed.error).map((i) => `${i.path}: ${i.message}`).join("; ")}`);
  return parsed.data;
}

export async function loadToolFile(filePath: string, c: Pick<ToolsConfig, "format" | "name" | "read" | "write">): Promise<ToolSet> {
  if (!existsSync(filePath)) throw new ToolsConfigError(`${filePath}: no such tool file`);
  try {
    return await importToolSet(readFileSync(filePath, "utf8"), { format: c.format, name: c.name, read: c.read, write: c.write });
  } catch (e) {
    if (e instanceof ToolFileError) throw new ToolsConfigError(`${filePath}: ${e.message}`);
    throw e;
  }
}

export async function loadTools(configPath = DEFAULT_CONFIG): Promise<LoadedTools> {
  const config = readConfig(configPath);
  const filePath = resolve(dirname(configPath), config.file);
  const set = await loadToolFile(filePath, config);
  const flows = config.flows.map((f) => parseFlow(f)!);
  for (const f of flows) {
    for (const name of [f.from, f.to])
      if (!set.tools.some((t) => t.name === name || t.title === name)) throw new ToolsConfigError(`${configPath}: flows: ${f.from}.${f.field}:${f.to}.${f.param} names ${name}, which ${set.refused.some((r) => r.name === name) ? "is refused" : "the file does not hold"}`);
  }
  return { configPath, config, filePath, set, flows };
}

export const defaultName = (file: string) => basename(file).replace(/\.(json|ya?ml)$/i, "").replace(/[^A-Za-z0-9_. -]/g, "-").slice(0, 64) || "tools";
