// Reading worlds/tools.yaml and the tool file it names, with errors that name the file and the field.
import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import type { ToolsConfig } from "../../core/kinds/tools/config/schema";
import { configFlows, parseToolsConfig, ToolsConfigProblem } from "../../core/kinds/tools/config/parse";
import { importToolSet, MAX_FILE_CHARS, ToolFileError, type ToolSet } from "../../core/kinds/tools/toolset";
import type { Flow } from "../../core/kinds/tools/tasks/generate";

export const DEFAULT_CONFIG = "worlds/tools.yaml";

export class ToolsConfigError extends Error {
  /** Lines printed before the message (each refused tool, before the verdict on the set). */
  constructor(message: string, readonly details: readonly string[] = []) {
    super(message);
  }
}

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

/** The file's text: refused in one line when it is too large to be a tool file or is not UTF-8. */
export function readToolText(filePath: string): string {
  const size = statSync(filePath).size;
  if (size > MAX_FILE_CHARS) throw new ToolsConfigError(`${filePath}: the file is ${(size / 1048576).toFixed(1)} MiB; a tool file holds at most ${MAX_FILE_CHARS / 1048576} MiB (choose the operations of a large API with --own-include, in a file of that size)`);
  const bytes = readFileSync(filePath);
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    const text = new TextDecoder("utf-8").decode(bytes);
    const at = text.indexOf("\uFFFD");
    const line = text.slice(0, Math.max(0, at)).split("\n").length;
    throw new ToolsConfigError(`${filePath}:${line}: the file is not UTF-8 text (a tool file is JSON or YAML in UTF-8; re-save it in that encoding)`);
  }
}

export async function loadToolFile(filePath: string, c: Pick<ToolsConfig, "format" | "name" | "read" | "write" | "include" | "exclude">): Promise<ToolSet> {
  if (!existsSync(filePath)) throw new ToolsConfigError(`${filePath}: no such tool file`);
  const text = readToolText(filePath);
  try {
    return await importToolSet(text, { format: c.format, name: c.name, read: c.read, write: c.write, include: c.include, exclude: c.exclude });
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
