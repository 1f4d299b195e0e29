// A tools run's folder (worlds/runs/<recipe>-<agent>-<digest>/): what the card reads. run.json names the tool
// file, its digest, the settings and the seed, the spend and how many episodes were kept; episodes.jsonl holds
// every kept episode's calls as the world traced them and the agent's last reply; results.json the shared
// results. The digest is in the name: a changed tool file changes every task, so its next run gets a new folder.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { canonicalJson, sha256Hex } from "../../core/util/canonical";
import type { ToolsTask } from "../../core/tools/tasks/generate";
import type { LoadedTools } from "./load";
import type { EpisodeTrace } from "./run";

export interface ToolsRunRecord {
  version: 1;
  /** The tool file, relative to the settings file. */
  file: string;
  sha256: string;
  format: string;
  set: { name: string; tools: number };
  /** The settings' digest, and the settings that decide what the tasks are. */
  settings_sha256: string;
  settings: Record<string, unknown>;
  seed: number;
  agent: string;
  runs: number;
  episodes: { kept: number; total: number };
  dollars: number | null;
  budget_dollars: number | null;
  /** Every task of the run: its id, arm, dial and request. */
  tasks: Array<{ id: string; arm: string; dial: ToolsTask["dial"] | null; request: string; intents: boolean }>;
}

const slug = (s: string) => s.replace(/[^A-Za-z0-9.]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 48) || "agent";

/** What decides the tasks (not the file's path or the task count's presentation): compared by card --compare. */
export function taskSettings(t: LoadedTools): Record<string, unknown> {
  const c = t.config;
  return { format: c.format, read: [...c.read].sort(), write: [...c.write].sort(), intents: c.intents, flows: c.flows, arms: c.measure ? null : c.arms, measure: c.measure ?? null, tasks_per_arm: c.tasks_per_arm, seed: c.seed, clock: c.clock };
}

export function runFolderOf(t: LoadedTools, agent: string): string {
  return join(dirname(t.configPath), "runs", `${slug(t.config.measure?.preset ?? "forms")}-${slug(agent)}-${t.set.sha256.slice(0, 8)}`);
}

export const folderNote = (path: string) => (existsSync(join(path, "run.json")) ? "the run there is replaced" : "a new run");

export async function writeRunFolder(path: string, o: { t: LoadedTools; tasks: ToolsTask[]; runs: number; agent: string; traces: EpisodeTrace[]; total: number; dollars: number | null; budget: number | null; results: unknown }): Promise<ToolsRunRecord> {
  const settings = taskSettings(o.t);
  const record: ToolsRunRecord = {
    version: 1,
    file: relative(dirname(o.t.configPath), o.t.filePath) || o.t.filePath,
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

export class RunFolderError extends Error {}

export function readRunFolder(path: string): { record: ToolsRunRecord; episodes: EpisodeTrace[] } {
  const file = join(path, "run.json");
  if (!existsSync(file)) throw new RunFolderError(`${path}: no tools run here (no run.json; 'worlds tools run' writes one)`);
  let record: ToolsRunRecord;
  try {
    record = JSON.parse(readFileSync(file, "utf8")) as ToolsRunRecord;
  } catch (e) {
    throw new RunFolderError(`${file}: not JSON (${(e as Error).message})`);
  }
  if (record.version !== 1 || typeof record.sha256 !== "string" || !Array.isArray(record.tasks)) throw new RunFolderError(`${file}: not a tools run record`);
  const lines = existsSync(join(path, "episodes.jsonl")) ? readFileSync(join(path, "episodes.jsonl"), "utf8").split("\n").filter(Boolean) : [];
  return { record, episodes: lines.map((l) => JSON.parse(l) as EpisodeTrace) };
}

/** The newest run folder (by when its record was written) on the tool file at `file`, relative to the settings. */
export function newestRunOn(configPath: string, file: string): { path: string; record: ToolsRunRecord } | null {
  const root = join(dirname(configPath), "runs");
  if (!existsSync(root)) return null;
  let best: { path: string; record: ToolsRunRecord; at: number } | null = null;
  for (const name of readdirSync(root)) {
    const path = join(root, name);
    try {
      const { record } = readRunFolder(path);
      const at = statSync(join(path, "run.json")).mtimeMs;
      if (record.file === file && (!best || at > best.at)) best = { path, record, at };
    } catch {
      continue;
    }
  }
  return best && { path: best.path, record: best.record };
}
