// One episode: create a world, run the agent against it, then read what it left and destroy the world in one call
// (`inspect` grades what was read; a kept world is read and left standing). Every stage's failure is recorded on the episode
// rather than thrown, so one broken world never takes the run down with it.
import type { WorldDiff } from "../../core/world/diff/types";
import type { TraceRecord } from "../../../durable-objects/protocol";
import { ServerError, type AdminClient, type CreatedWorld, type PersonTranscript } from "../client";
import { agentEnv } from "../agent/contract";
import { runAgent, type AgentOutcome } from "../agent/runner";
import type { Traffic } from "../../core/results/index";
import { summarizeTraffic } from "../../core/pipeline/index";
import type { InProcessAgent } from "./in-process";

/** Where an episode's world lives: the server's admin API, or (`evals run --environment`) an environment of your own. */
export type EpisodeWorlds = Pick<AdminClient, "createWorld" | "contents" | "endWorld" | "deleteWorld">;

export interface EpisodeSpec {
  client: EpisodeWorlds;
  serverUrl: string;
  /** A bundled seed name or an inline seed document. */
  seed: string | Record<string, unknown>;
  scenario?: unknown;
  /** The person the agent talks to (POST /admin/worlds {person}); the agent then gets WORLDS_PERSON_URL. */
  person?: Record<string, unknown>;
  argv: readonly string[];
  /** Runs this agent in-process instead of spawning `argv` (the built-in model agent, `--model`). */
  inProcess?: InProcessAgent;
  /**
   * The task JSON handed to the agent (isolated mode), or null (shift mode, `worlds run`); or made from the world
   * once it exists (an environment of your own says its tools only when started).
   */
  taskJson: string | null | ((world: CreatedWorld) => string);
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
  /** The conversation with the world's person; null when it has none (or the world was kept and not ended). */
  person: PersonTranscript | null;
}

export interface EpisodeResult<G> {
  world: CreatedWorld | null;
  /** Why the world could not be created (the agent never ran). */
  create_error: ServerError | Error | null;
  agent: AgentOutcome | null;
  diff: WorldDiff | null;
  trace: TraceRecord[] | null;
  /** The person's conversation at the world's end, when it has a person. */
  person?: PersonTranscript | null;
  traffic: Traffic | null;
  /** Why the diff/trace could not be read or `inspect` failed. */
  inspect_error: Error | null;
  inspected: G | null;
  destroyed: boolean;
  destroy_error: Error | null;
}

export async function runEpisode<G>(spec: EpisodeSpec, inspect?: (view: WorldView, agent: AgentOutcome) => Promise<G> | G): Promise<EpisodeResult<G>> {
  const out: EpisodeResult<G> = { world: null, create_error: null, agent: null, diff: null, trace: null, person: null, traffic: null, inspect_error: null, inspected: null, destroyed: false, destroy_error: null };
  try {
    out.world = await spec.client.createWorld(spec.seed, spec.scenario, spec.person ? { person: spec.person } : {});
  } catch (e) {
    out.create_error = e as Error;
    return out;
  }
  const world = out.world;
  try {
    const inProcess = spec.inProcess;
    const taskJson = typeof spec.taskJson === "function" ? spec.taskJson(world) : spec.taskJson;
    const agent = (): Promise<AgentOutcome> =>
      inProcess
        ? inProcess.run({ world, serverUrl: spec.serverUrl, taskJson, timeoutMs: spec.timeoutMs, signal: spec.signal })
        : runAgent({
            argv: spec.argv,
            env: { ...agentEnv(world, spec.serverUrl, taskJson), WORLDS_MODE: spec.mode },
            stdin: taskJson ?? "",
            timeoutMs: spec.timeoutMs,
            signal: spec.signal,
            cwd: spec.cwd,
          });
    out.agent = await (spec.agentSlot ? spec.agentSlot(agent) : agent());
    // Read what the agent left even after an interrupt: the caller decides whether to grade it. Unless kept, one
    // round trip reads the world's end and deletes it (the server archives the trace before deleting).
    try {
      const read: { diff: WorldDiff; trace: TraceRecord[]; person?: PersonTranscript | null } = spec.keepWorld ? await spec.client.contents(world.id) : await spec.client.endWorld(world.id);
      out.destroyed = !spec.keepWorld;
      out.diff = read.diff;
      out.trace = read.trace;
      out.person = read.person ?? null;
    } catch (e) {
      out.inspect_error = e as Error; // a world not kept may still stand: the plain delete below removes it
    }
    if (out.diff && out.trace) {
      out.traffic = summarizeTraffic(out.trace);
      try {
        if (inspect && !spec.signal?.aborted) out.inspected = await inspect({ world, diff: out.diff, trace: out.trace, person: out.person ?? null }, out.agent);
      } catch (e) {
        out.inspect_error = e as Error;
      }
    }
  } finally {
    // The agent stage threw, or reading the world's end failed: remove the world all the same.
    if (!spec.keepWorld && !out.destroyed) {
      try {
        await spec.client.deleteWorld(world.id);
        out.destroyed = true;
      } catch (e) {
        // Already gone (the end call deleted it before failing to answer) is what was wanted.
        if (e instanceof ServerError && e.kind === "not_found") out.destroyed = true;
        else out.destroy_error = e as Error;
      }
    }
  }
  return out;
}
