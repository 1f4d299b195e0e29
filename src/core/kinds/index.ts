// The world kinds, one entry each. A kind is a folder beside this file: what its worlds simulate, how a stored
// run's task becomes an episode (the world's seed and person, what the agent is told) and how the world's end is
// graded into the shared record (src/core/results). Hosts run every kind through one pipeline and reach a kind
// only through this registry; a new kind is a folder, a service under durable-objects/ and a line here.
import type { EpisodeHost, EpisodeRef, EpisodeWork } from "../pipeline/work";
import { accountEpisode, type AccountRun } from "./account/episode";
import { toolsEpisode } from "./tools/episode";
import type { ToolsRunPlan } from "./tools/run/plan";
import { replayEpisode, type ReplayRun } from "./replay/episode";

export type { AccountRun } from "./account/episode";
export type { ReplayRun } from "./replay/episode";

/** A stored run's kind-specific part, as a host loads it (account: the plan from the seed; tools: the generated tasks; replay: the task file). */
export type KindRun = { kind: "account"; account: AccountRun } | { kind: "tools"; tools: ToolsRunPlan } | { kind: "evals"; evals: ReplayRun };
export type KindName = KindRun["kind"];

export interface WorldKind<N extends KindName> {
  /** The kind's name as runs store it (replay runs are stored as "evals", after the `worlds evals` command). */
  name: N;
  /** Where the kind lives, for messages and docs. */
  folder: string;
  /** One episode of a stored run of this kind. */
  episode(run: Extract<KindRun, { kind: N }>, ep: EpisodeRef, host: EpisodeHost): EpisodeWork;
}

export const KINDS: { [N in KindName]: WorldKind<N> } = {
  account: { name: "account", folder: "src/core/kinds/account", episode: (run, ep) => accountEpisode(run.account, ep) },
  tools: { name: "tools", folder: "src/core/kinds/tools", episode: (run, ep, host) => toolsEpisode(run.tools, ep, host.runId) },
  evals: { name: "evals", folder: "src/core/kinds/replay", episode: (run, ep, host) => replayEpisode(run.evals, ep, host) },
};

/** The episode of `ep` in a stored run, by the run's kind. */
export function episodeOf(run: KindRun, ep: EpisodeRef, host: EpisodeHost): EpisodeWork {
  // Each entry takes its own kind's run; the union is narrowed by the name the entry is keyed by.
  return (KINDS[run.kind] as WorldKind<KindName>).episode(run as never, ep, host);
}
