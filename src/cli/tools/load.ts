// Reading worlds/tools.yaml and the tool file it names, with errors that name the file and the field.
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import type { ToolsConfig } from "../../core/kinds/tools/config/schema";
import { configFlows, parseToolsConfig, ToolsConfigProblem } from "../../core/kinds/tools/config/parse";
import { importToolSet, ToolFileError, type ToolSet } from "../../core/kinds/tools/toolset";
import type { Flow } from "../../core/kinds/tools/tasks/generate";

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
  return asConfigError(() => parseToolsConfig(readFileSync(path, "utf8"), path));
}

function asConfigError<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof ToolsConfigProblem) throw new ToolsConfigError(e.message);
    throw e;
  }
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
  const flows = asConfigError(() => configFlows(config, set, configPath));
  return { configPath, config, filePath, set, flows };
}

export const defaultName = (file: string) => basename(file).replace(/\.(json|ya?ml)$/i, "").replace(/[^A-Za-z0-9_. -]/g, "-").slice(0, 64) || "tools";
