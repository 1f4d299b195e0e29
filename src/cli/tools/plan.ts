// `worlds tools run --dry-run`: the plan, and nothing sent. Episodes, calls (shortest, expected, the ceiling),
// the cost from each task's shortest conversation at the model's price, the cap the run stops at, the folder.
import { resolve } from "node:path";
import { mergePrices, modelLabel, parseModelName, priceOf, SHIPPED_PRICES, type Price } from "../../core/models/index";
import { DEFAULT_MODEL_CAP_DOLLARS, dollarsText, planRun, type ToolsPlan } from "../../core/kinds/tools/plan";
import type { ToolsTask } from "../../core/kinds/tools/tasks/generate";
import { TOKENIZER } from "../../core/kinds/tools/dials/tokens";
import { readPrices } from "../models/setup";
import { folderNote, runFolderOf } from "./folder";
import type { LoadedTools } from "./load";
import { measureLine } from "./summary";
import { ToolsConfigError } from "./load";

export interface PlanFlags {
  model?: string;
  "model-prices"?: string;
  "model-budget"?: number;
}

function priceFor(f: PlanFlags, env: NodeJS.ProcessEnv, cwd: string): { label: string; price: Price | null } | null {
  if (f.model === undefined) return null;
  const parsed = parseModelName(f.model);
  if (!parsed.ok) throw new ToolsConfigError(`--model: ${parsed.message}`);
  const file = f["model-prices"] ?? env.WORLDS_MODEL_PRICES;
  let table = SHIPPED_PRICES;
  if (file) {
    const read = readPrices(resolve(cwd, file), file);
    if (!read.ok) throw new ToolsConfigError(read.message);
    table = mergePrices(SHIPPED_PRICES, read.table);
  }
  return { label: modelLabel(parsed.value), price: priceOf(table, parsed.value) };
}

export interface RunSpend {
  model: { label: string; price: Price | null } | null;
  plan: ToolsPlan;
  /** The cap the run stops at: --model-budget, else the default when the model has a price; null when none holds. */
  cap: number | null;
  capText: string;
}

/** The plan's cost and the cap, shared by --dry-run and by the question a --model run asks before it spends. */
export function runSpend(t: LoadedTools, tasks: ToolsTask[], runs: number, f: PlanFlags, env = process.env, cwd = process.cwd()): RunSpend {
  const model = priceFor(f, env, cwd);
  const clockUnix = Math.floor(Date.parse(t.config.clock) / 1000);
  const plan = planRun(tasks, runs, { clockUnix, price: model?.price ?? null });
  const given = f["model-budget"];
  const cap = given ?? (model?.price ? DEFAULT_MODEL_CAP_DOLLARS : null);
  const capText =
    given !== undefined ? `the run stops at ${dollarsText(given)}`
    : cap !== null ? `the run stops at ${dollarsText(cap)} (the default; --model-budget USD sets another)`
    : model ? "no cap holds without a price (--model-prices FILE gives one, and then the run stops at $1.00)"
    : "no cap (--model-budget USD sets the one the run stops at)";
  return { model, plan, cap, capText };
}

export function planLines(t: LoadedTools, tasks: ToolsTask[], runs: number, f: PlanFlags, env = process.env, cwd = process.cwd()): string[] {
  const { model, plan: p, capText } = runSpend(t, tasks, runs, f, env, cwd);
  const against = model ? ` against ${model.label}` : "";
  const cost =
    !model ? "not estimated: the agent is your command and worlds does not see its model (--model P:M runs worlds' own agent)"
    : p.dollars === null ? `not estimated: ${model.label} has no price in the table (--model-prices FILE gives it one)`
    : `about ${dollarsText(p.dollars)} expected (${p.tokens.input} input and ${p.tokens.output} output tokens) · ${capText}`;
  const folder = runFolderOf(t, model?.label ?? "agent");
  return [
    `plan  ${p.episodes} episodes${against}${p.dollars !== null ? `: about ${dollarsText(p.dollars)}, and ${capText}` : ""}`,
    `  tasks       ${measureLine(t)} · ${tasks.length} tasks x ${runs} runs · strict`,
    `  your tools  ${t.set.name}, ${t.set.tools.length} tools from ${t.config.file}; the answers are simulated from your schemas, and your backend is never called`,
    `  calls       ${p.calls.shortest} if every task is solved the shortest way · about ${p.calls.expected} expected · at most ${p.calls.atMost} (${p.calls.perEpisode} per episode)`,
    `  cost        ${cost}`,
    ...(model && p.dollars !== null ? [`  estimate    each task's shortest conversation replayed against the simulator, every turn's system prompt, tool block and messages counted with ${TOKENIZER}, at the table's price; the cap is what holds`] : []),
    `  folder      ${folder} (${folderNote(folder, t)})`,
  ];
}
