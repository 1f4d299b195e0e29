// One episode: create a world, run the agent against it, look at what it left (the caller's `inspect` grades
// it while the world still exists), then destroy the world. Every stage's failure is recorded on the episode
// rather than thrown, so one broken world never takes the run down with it.
import type { WorldDiff } from "../../core/diff/types";
import type { TraceRecord } from "../../../durable-objects/protocol";
import { ServerError, type AdminClient, type CreatedWorld } from "../client";
import { agentEnv } from "../agent/contract";
import { runAgent, type AgentOutcome } from "../agent/runner";
import type { Traffic } from "../../core/results/index";
import { summarizeTraffic } from "../../core/runs/index";

export interface EpisodeSpec {
  client: AdminClient;
  serverUrl: string;
  /** A bundled seed name or an inline seed document. */
  seed: string | Record<string, unknown>;
  scenario?: unknown;
  argv: readonly string[];
  /** The task JSON handed to the agent (isolated mode), or null (shift mode, `worlds run`). */
  taskJson: string | null;
  mode: "isolated" | "shift" | "run";
  timeoutMs: number;
  keepWorld: boolean;
  signal?: AbortSignal;
  cwd?: string;
  /**
   * Runs the agent stage when a slot is free (passk bounds agent processes with it). The world is created
   * before and graded and removed after, outside the slot, so the next agent never waits on the server.
   */
  agentSlot?: <T>(fn: () => Promise<T>) => Promise<T>;
}

export interface WorldView {
  world: CreatedWorld;
  diff: WorldDiff;
  trace: TraceRecord[];
}

export interface EpisodeResult<G> {
  world: CreatedWorld | null;
  /** Why the world could not be created (the agent never ran). */
  create_error: ServerError | Error | null;
  agent: AgentOutcome | null;
  diff: WorldDiff | null;
  trace: TraceRecord[] | null;
  traffic: Traffic | null;
  /** Why the diff/trace could not be read or `inspect` failed. */
  inspect_error: Error | null;
  inspected: G | null;
  destroyed: boolean;
  destroy_error: Error | null;
}

export async function runEpisode<G>(spec: EpisodeSpec, inspect?: (view: WorldView, agent: AgentOutcome) => Promise<G> | G): Promise<EpisodeResult<G>> {
  const out: EpisodeResult<G> = { world: null, create_error: null, agent: null, diff: null, trace: null, traffic: null, inspect_error: null, inspected: null, destroyed: false, destroy_error: null };
  try {
    out.world = await spec.client.createWorld(spec.seed, spec.scenario);
  } catch (e) {
    out.create_error = e as Error;
    return out;
  }
  const world = out.world;
  try {
    const agent = () =>
      runAgent({
        argv: spec.argv,
        env: { ...agentEnv(world, spec.serverUrl, spec.taskJson), WORLDS_MODE: spec.mode },
        stdin: spec.taskJson ?? "",
        timeoutMs: spec.timeoutMs,
        signal: spec.signal,
        cwd: spec.cwd,
      });
    out.agent = await (spec.agentSlot ? spec.agentSlot(agent) : agent());
    try {
      // Read what the agent left even after an interrupt: the caller decides whether to grade it.
      const [diff, trace] = await Promise.all([spec.client.diff(world.id), spec.client.trace(world.id)]);
      out.diff = diff;
      out.trace = trace;
      out.traffic = summarizeTraffic(trace);
      if (inspect && !spec.signal?.aborted) out.inspected = await inspect({ world, diff, trace }, out.agent);
    } catch (e) {
      out.inspect_error = e as Error;
    }
  } finally {
    if (!spec.keepWorld) {
      try {
        await spec.client.deleteWorld(world.id);
        out.destroyed = true;
      } catch (e) {
        out.destroy_error = e as Error;
      }
    }
  }
  return out;
}
