// A tools run's folder (worlds/runs/<recipe>-<agent>-<digest>/): what the card reads. run.json names the tool
// file, its digest, the settings and the seed, the spend and how many episodes were kept; episodes.jsonl holds
// every kept episode's calls as the world traced them and the agent's last reply; results.json the shared
// results. The digest is in the name: a changed tool file changes every task, so its next run gets a new folder;
// and every run gets its own (numbered after the first), so none replaces another.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { canonicalJson, sha256Hex } from "../../core/util/canonical";
import type { ToolsTask } from "../../core/kinds/tools/tasks/generate";
import type { LoadedTools } from "./load";
import { parseEpisodes, parseRunRecord, RunFolderError, type EpisodeTrace, type ToolsRunRecord } from "../../core/kinds/tools/card/record";

export { RunFolderError, type ToolsRunRecord };

const slug = (s: string) => s.replace(/[^A-Za-z0-9.]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 48) || "agent";

/** What decides the tasks (not the file's path or the task count's presentation): compared by card --compare. */
export function taskSettings(t: LoadedTools): Record<string, unknown> {
  const c = t.config;
  return { format: c.format, read: [...c.read].sort(), write: [...c.write].sort(), intents: c.intents, flows: c.flows, arms: c.measure ? null : c.arms, measure: c.measure ?? null, tasks_per_arm: c.tasks_per_arm, seed: c.seed, clock: c.clock };
}

/**
 * The next run's own folder: named by recipe, agent and digest, and numbered (`-2`, `-3`...) past the runs already
 * there, so a second agent's run or a one-task replay never replaces the run a card was read from.
 */
export function runFolderOf(t: LoadedTools, agent: string): string {
  const base = join(dirname(t.configPath), "runs", `${slug(t.config.measure?.preset ?? "forms")}-${slug(agent)}-${t.set.sha256.slice(0, 8)}`);
  let path = base;
  for (let n = 2; existsSync(join(path, "run.json")); n++) path = `${base}-${n}`;
  return path;
}

/** The tool file as a run record names it: relative to the settings file. */
export const recordFileOf = (t: LoadedTools) => relative(dirname(t.configPath), t.filePath) || t.filePath;

/** The tool file as the user would type it from here (for messages). */
export const shownFileOf = (t: LoadedTools) => relative(process.cwd(), t.filePath) || t.filePath;

/** The newest run on this tool file when it was made on other bytes than the file holds now (its tasks differ). */
export function staleRunOn(t: LoadedTools): { path: string; record: ToolsRunRecord } | null {
  const newest = newestRunOn(t.configPath, recordFileOf(t));
  return newest && newest.record.sha256 !== t.set.sha256 ? newest : null;
}

/** What the next run does with its folder, and why a new one when the tool file changed since the last run. */
export function folderNote(path: string, t: LoadedTools): string {
  const stale = staleRunOn(t);
  return stale ? `a new run: ${shownFileOf(t)} changed since the run in ${stale.path} (sha256 ${stale.record.sha256.slice(0, 8)}, now ${t.set.sha256.slice(0, 8)}), so every task's id changed` : "a new run";
}

export async function writeRunFolder(path: string, o: { t: LoadedTools; tasks: ToolsTask[]; runs: number; agent: string; traces: EpisodeTrace[]; total: number; dollars: number | null; budget: number | null; results: unknown }): Promise<ToolsRunRecord> {
  const settings = taskSettings(o.t);
  const record: ToolsRunRecord = {
    version: 1,
    file: recordFileOf(o.t),
    sha256: o.t.set.sha256,
    format: o.t.set.format,
    set: { name: o.t.set.name, tools: o.t.set.tools.length },
    settings_sha256: await sha256Hex(canonicalJson(settings)),
    settings,
    seed: o.t.config.seed,
    agent: o.agent,
    runs: o.runs,
    episodes: { kept: o.traces.length, total: o.total },
    dollars: o.dollars,
    budget_dollars: o.budget,
    tasks: o.tasks.map((x) => ({ id: x.id, arm: x.arm, dial: x.dial ?? null, request: x.request, intents: x.intents })),
  };
  mkdirSync(path, { recursive: true });
  writeFileSync(join(path, "run.json"), JSON.stringify(record, null, 2) + "\n");
  const order = (a: EpisodeTrace, b: EpisodeTrace) => a.run - b.run || o.tasks.findIndex((x) => x.id === a.task) - o.tasks.findIndex((x) => x.id === b.task);
  writeFileSync(join(path, "episodes.jsonl"), [...o.traces].sort(order).map((e) => JSON.stringify(e)).join("\n") + (o.traces.length ? "\n" : ""));
  writeFileSync(join(path, "results.json"), JSON.stringify(o.results, null, 2) + "\n");
  return record;
}

/** The folder's record and its episodes, each checked; a folder that is missing or unreadable is named in the error. */
export function readRunFolder(path: string): { record: ToolsRunRecord; episodes: EpisodeTrace[] } {
  let st;
  try {
    st = statSync(path);
  } catch {
    throw new RunFolderError(`${path}: no such folder (a tools run's folder is worlds/runs/<recipe>-<agent>-<digest>/; 'worlds tools run' writes one)`);
  }
  if (!st.isDirectory()) throw new RunFolderError(`${path}: not a folder (name the run's folder, not a file in it)`);
  const file = join(path, "run.json");
  if (!existsSync(file)) throw new RunFolderError(`${path}: no tools run here (no run.json; 'worlds tools run' writes one)`);
  const record = parseRunRecord(readText(file), file);
  const list = join(path, "episodes.jsonl");
  if (!existsSync(list)) throw new RunFolderError(`${list}: missing (every run writes it beside run.json)`);
  return { record, episodes: parseEpisodes(readText(list), list, record) };
}

function readText(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (e) {
    throw new RunFolderError(`${file}: cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}

/** The newest run folder (by when its record was written) on the tool file at `file`, relative to the settings; folders whose run.json does not read, and `except`, are passed over. */
export function newestRunOn(configPath: string, file: string, except?: string): { path: string; record: ToolsRunRecord } | null {
  const root = join(dirname(configPath), "runs");
  if (!existsSync(root)) return null;
  let best: { path: string; record: ToolsRunRecord; at: number } | null = null;
  for (const name of readdirSync(root).sort()) {
    const path = join(root, name);
    if (except !== undefined && resolve(path) === resolve(except)) continue;
    const json = join(path, "run.json");
    try {
      const record = parseRunRecord(readText(json), json);
      const at = statSync(json).mtimeMs;
      if (record.file === file && (!best || at > best.at)) best = { path, record, at };
    } catch {
      continue;
    }
  }
  return best && { path: best.path, record: best.record };
}
