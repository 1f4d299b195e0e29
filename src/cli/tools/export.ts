// `worlds tools export --to promptfoo|inspect`: the generated tasks written as another harness's test cases, then
// read back from disk and checked against the documented shape, so a file that would not load is an error here
// that names it, not a surprise in the other tool.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parse as parseYaml, stringify as stringifyYaml } from "yaml";
import type { ZodType } from "zod";
import { zodIssues } from "../../core/world/seed/parse";
import { inspectDataset, inspectSampleSchema } from "../../core/kinds/tools/export/inspect";
import { DEFAULT_PROMPTFOO_PROVIDER, promptfooConfig, promptfooConfigSchema } from "../../core/kinds/tools/export/promptfoo";
import type { ToolsTask } from "../../core/kinds/tools/tasks/generate";
import { ToolsConfigError, type LoadedTools } from "./load";

export const EXPORT_TARGETS = ["promptfoo", "inspect"] as const;
export type ExportTarget = (typeof EXPORT_TARGETS)[number];

export const defaultExportPath = (t: LoadedTools, to: ExportTarget) => join(dirname(t.configPath), to === "promptfoo" ? "promptfooconfig.yaml" : "inspect-tasks.jsonl");

function check<T>(schema: ZodType<T>, doc: unknown, where: string): void {
  const r = schema.safeParse(doc);
  if (!r.success) throw new ToolsConfigError(`${where}: not the documented shape (${zodIssues(r.error).slice(0, 3).map((i) => `${i.path}: ${i.message}`).join("; ")})`);
}

/** Writes the file and checks what is on disk; returns what the summary line says. */
export function exportTasks(t: LoadedTools, tasks: ToolsTask[], o: { to: ExportTarget; out?: string; provider?: string }): { path: string; count: number } {
  if (!tasks.length) throw new ToolsConfigError(`${t.configPath}: no tasks to export`);
  const path = o.out ?? defaultExportPath(t, o.to);
  const text =
    o.to === "promptfoo"
      ? `# promptfoo test cases for the tasks on your tools (${t.set.name}), written by worlds tools export; promptfoo judges the first turn,\n# worlds tools run the whole episode. Regenerate rather than edit: the tasks follow the tool file and worlds/tools.yaml.\n${stringifyYaml(promptfooConfig(tasks, { provider: o.provider }), { lineWidth: 0, aliasDuplicateObjects: false })}`
      : inspectDataset(tasks);
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  } catch (e) {
    throw new ToolsConfigError(`${path}: cannot write it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  const back = readFileSync(path, "utf8");
  if (o.to === "promptfoo") {
    let doc: unknown;
    try {
      doc = parseYaml(back, { maxAliasCount: 0 });
    } catch (e) {
      throw new ToolsConfigError(`${path}: the written YAML does not parse (${(e as Error).message.split("\n")[0]})`);
    }
    check(promptfooConfigSchema, doc, path);
  } else {
    back.split("\n").filter(Boolean).forEach((line, i) => {
      let doc: unknown;
      try {
        doc = JSON.parse(line);
      } catch (e) {
        throw new ToolsConfigError(`${path}:${i + 1}: the written line is not JSON (${(e as Error).message})`);
      }
      check(inspectSampleSchema, doc, `${path}:${i + 1}`);
    });
  }
  return { path, count: tasks.length };
}

export { DEFAULT_PROMPTFOO_PROVIDER };
