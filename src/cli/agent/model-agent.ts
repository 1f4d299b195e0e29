// The built-in model agent in the CLI: the model client from the flags and the environment (keys only from
// there; never cached, since every repetition of a task must ask the model again), and one in-process run per
// episode against the world's JSON tools (and its person, when it has one), bounded by the episode's timeout.
// Whatever goes wrong (the model, the budget, the world's tools, a bug here) comes back as an outcome with the
// reason said: it never ends the run.
import { readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { addUsage, modelAgentNotes, usageLine } from "../../core/agents/describe";
import { DEFAULT_TURN_LIMIT, runModelAgent, type ModelAgentRun, type ModelAgentUsage } from "../../core/agents/model-agent";
import { taskMessage } from "../../core/agents/task-message";
import { jsonToolSurface } from "../../core/agents/tool-surface";
import { jsonPersonSurface } from "../../core/agents/person-surface";
import { runModelAgentWithPerson } from "../../core/agents/model-agent-person";
import { modelLabel, parseModelName, type ModelClient, type ModelName } from "../../core/models/index";
import { setupModelClient } from "../models/setup";
import type { InProcessAgent, InProcessContext, InProcessOutcome } from "../episode/in-process";
import { REPLY_LIMIT } from "./runner";
import type { ModelAgentFlags } from "./model-flags";

const SYSTEM_FILE_LIMIT = 64 * 1024;

export interface ModelAgent extends InProcessAgent {
  /** The flags a replay line needs to run the same agent again. */
  replayFlags: string[];
  /** Spend over every episode so far. */
  totals(): { episodes: number; usage: ModelAgentUsage };
  /** One line for the end of the run: what the agent model did and cost. */
  summary(): string;
  /** An episode was refused a model call by the budget: the run's cap is reached. */
  capReached(): boolean;
  /** The budget in dollars, or null. */
  budgetDollars: number | null;
}

export type ModelAgentSetup = { ok: true; agent: ModelAgent } | { ok: false; message: string; nextAction: string };

export function setupModelAgent(f: ModelAgentFlags & { model: string }, o: { concurrency: number; reserveMicros?: number }, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): ModelAgentSetup {
  const parsed = parseModelName(f.model);
  if (!parsed.ok) return { ok: false, message: `--model: ${parsed.message}`, nextAction: "name the agent's model as provider:model, e.g. --model openai:gpt-4.1-mini" };
  let system: string | undefined;
  if (f["model-system"]) {
    const path = resolve(cwd, f["model-system"]);
    try {
      if (statSync(path).size > SYSTEM_FILE_LIMIT) return { ok: false, message: `--model-system ${f["model-system"]} is over 64 KB`, nextAction: "give the agent a system prompt, not a document" };
      system = readFileSync(path, "utf8").trim();
    } catch (e) {
      return { ok: false, message: `cannot read --model-system ${f["model-system"]} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`, nextAction: "pass an existing text file" };
    }
    if (!system) return { ok: false, message: `--model-system ${f["model-system"]} is empty`, nextAction: "write the system prompt in the file, or leave the flag out for the default" };
  }
  const client = setupModelClient(
    { model: parsed.value, baseUrl: f["model-base-url"], budgetDollars: f["model-budget"], reserveMicros: o.reserveMicros, noCache: true, pricesFile: f["model-prices"], timeoutS: f["model-timeout"], concurrency: Math.max(1, o.concurrency) },
    env,
    cwd,
  );
  if (!client.ok) return { ok: false, message: `the model agent: ${client.message}`, nextAction: client.nextAction };
  const label = modelLabel(parsed.value);
  const turnLimit = f["turn-limit"] ?? DEFAULT_TURN_LIMIT;
  const replayFlags = ["--model", label];
  if (f["turn-limit"] !== undefined) replayFlags.push("--turn-limit", String(f["turn-limit"]));
  if (f["model-base-url"]) replayFlags.push("--model-base-url", f["model-base-url"]);
  if (f["model-timeout"] !== undefined) replayFlags.push("--model-timeout", String(f["model-timeout"]));
  if (f["model-system"]) replayFlags.push("--model-system", f["model-system"]);
  if (f["model-prices"]) replayFlags.push("--model-prices", f["model-prices"]);

  const usage: ModelAgentUsage = { requests: 0, cached: 0, input_tokens: 0, output_tokens: 0, micros: 0, unpriced: false };
  let episodes = 0;
  let capped = false;
  const budget = client.budgetDollars;
  return {
    ok: true,
    agent: {
      label: ["--model", label],
      replayFlags,
      totals: () => ({ episodes, usage: { ...usage } }),
      capReached: () => capped,
      budgetDollars: budget,
      summary: () => `model agent ${label}: ${episodes} episode${episodes === 1 ? "" : "s"}, ${usageLine(usage)}${budget !== null ? ` (budget $${budget.toFixed(2)})` : ""}`,
      async run(ctx) {
        const out = await runOnce(client.client, label, parsed.value, system, turnLimit, ctx);
        episodes++;
        if (out.run) addUsage(usage, out.run.usage);
        if (out.run?.end === "model_error" && out.run.error?.kind === "budget") capped = true;
        return out.outcome;
      },
    },
  };
}

async function runOnce(client: ModelClient, label: string, model: ModelName, system: string | undefined, turnLimit: number, ctx: InProcessContext): Promise<{ outcome: InProcessOutcome; run: ModelAgentRun | null }> {
  const started = Date.now();
  const ctl = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    ctl.abort();
  }, ctx.timeoutMs);
  const onOuter = () => ctl.abort();
  ctx.signal?.addEventListener("abort", onOuter, { once: true });
  if (ctx.signal?.aborted) ctl.abort();
  const finish = (reply: string, error: string | null, notes: string[], run: ModelAgentRun | null) => {
    const answered = run?.end === "answered" && !error;
    const kept = capBytes(reply, REPLY_LIMIT);
    const outcome: InProcessOutcome = {
      started: true,
      spawn_error: null,
      exit_code: answered ? 0 : timedOut || ctx.signal?.aborted ? null : 1,
      signal: null,
      timed_out: timedOut,
      interrupted: !timedOut && !!ctx.signal?.aborted,
      duration_ms: Date.now() - started,
      reply: kept.text,
      stdout_bytes: Buffer.byteLength(reply),
      reply_truncated: kept.truncated,
      stderr: "",
      stderr_bytes: 0,
      stderr_truncated: false,
      in_process: { error: error === null ? null : client.redact(error), turn_limit_reached: run?.end === "turn_limit", notes: notes.map((n) => client.redact(n)) },
    };
    return { outcome, run };
  };
  try {
    const message = taskMessage(ctx.taskJson, system);
    if (!message.ok) return finish("", `the model agent could not read its task: ${message.message}`, [], null);
    const surface = jsonToolSurface(ctx.world.tools_url ?? `${ctx.serverUrl}/tools/v1`, ctx.world.key);
    const listed = await surface.list(ctl.signal);
    if (!listed.ok) return finish("", `the model agent could not list the world's tools: ${listed.message}`, [], null);
    const input = { client, model, system: message.value.system, user: message.value.user, history: message.value.history, tools: listed.tools, surface, turnLimit, signal: ctl.signal };
    // With a person (a replay task's), the model's answers are its messages to the person, until the person is done.
    const withPerson = ctx.world.person_url ? await runModelAgentWithPerson(input, jsonPersonSurface(ctx.world.person_url, ctx.world.key)) : null;
    const run = withPerson ? withPerson.run : await runModelAgent(input);
    const notes = modelAgentNotes(label, run, turnLimit);
    if (withPerson) notes.push(`the person: ${withPerson.talk.said} message${withPerson.talk.said === 1 ? "" : "s"} answered, ${withPerson.talk.done ? "done" : "not done"}`);
    const error =
      run.end === "model_error"
        ? `the model call failed (${run.error?.kind ?? "error"}): ${run.error?.message ?? "unknown"}`
        : run.end === "turn_limit"
          ? `the model agent reached its turn limit (${turnLimit} turns) without a final answer`
          : withPerson?.talk.failed === "person"
            ? withPerson.talk.error
            : null;
    return finish(run.reply, error, notes, run);
  } catch (e) {
    // A bug in the loop costs this episode, never the run.
    return finish("", `the model agent failed: ${(e as Error).message}`, [], null);
  } finally {
    clearTimeout(timer);
    ctx.signal?.removeEventListener("abort", onOuter);
  }
}

function capBytes(s: string, limit: number): { text: string; truncated: boolean } {
  const bytes = Buffer.from(s, "utf8");
  if (bytes.length <= limit) return { text: s, truncated: false };
  return { text: bytes.subarray(0, limit).toString("utf8").replace(/\uFFFD$/, ""), truncated: true };
}
