// Running a family's tiers against an agent: each tier k times, each episode in a fresh world made from the
// tier's seed, the agent handed the tier's instruction (as a ticket on an account world, as the request on a
// tools world), and every episode graded by the tier's verify checks on the world's end. Records are the
// results contract's, so a family run reads like any crash test (statuses, exit codes, pass^k, Wilson).
import type { BuildInputRaw, EpisodeRecordInput, ServerEnv } from "../../core/results/index";
import type { RubricDocument } from "../../core/rubric/schema";
import { canonicalJson, sha256Hex } from "../../core/util/canonical";
import type { Snapshot } from "../../core/families/verify/evaluate";
import { verifyGrade, type VerifyGrade } from "../../core/families/grade";
import { episodeRecordOf, runEpisodes, type AgentRunOptions, type GradedEpisode } from "../episode/loop";
import type { LoadedFamily, LoadedTier } from "./load";
import { untouchedSnapshot, verifyEnd } from "./world";

export interface FamilyRunOptions extends AgentRunOptions {
  tiers: LoadedTier[];
  onEpisode?: (done: number, total: number) => void;
}

/** What verify reads of the untouched world, once per tier: every episode's diff is laid over it. */
async function snapshots(o: FamilyRunOptions): Promise<Map<string, Snapshot>> {
  const out = new Map<string, Snapshot>();
  for (const tier of o.tiers) {
    const world = await o.server.client.createWorld(tier.worldSeed!);
    try {
      out.set(tier.folder, await untouchedSnapshot(o.server.client, world, tier));
    } finally {
      await o.server.client.deleteWorld(world.id).catch(() => undefined);
    }
  }
  return out;
}

export async function runFamily(o: FamilyRunOptions): Promise<EpisodeRecordInput[]> {
  const snaps = await snapshots(o);
  // Run-major order, as passk: run 1 of every tier, then run 2...
  const jobs = Array.from({ length: o.runs }, (_, r) => o.tiers.map((tier, i) => ({ run: r + 1, ticket: i + 1, tier }))).flat();
  return runEpisodes<(typeof jobs)[number], VerifyGrade, EpisodeRecordInput>({
    jobs, server: o.server, argv: o.argv, inProcess: o.inProcess, concurrency: o.concurrency, timeoutMs: o.timeoutMs, signal: o.signal, onEpisode: o.onEpisode,
    episode: (job) => ({
      seed: job.tier.worldSeed!,
      taskJson: job.tier.taskJson,
      grade: (view, agent) => verifyGrade(verifyEnd(job.tier, snaps.get(job.tier.folder)!, view.diff, agent.reply).results),
    }),
    settle: (job, ep) => episodeRecordOf(job.run, [job.ticket], ep, (g, agent, note) => tierRecord(job.run, job.ticket, g, agent, note, job.tier.worldSeed!.kind === "tools")),
  });
}

function tierRecord(run: number, ticket: number, ep: GradedEpisode<VerifyGrade>, agent: EpisodeRecordInput["agent"], note: string | null, tools: boolean): EpisodeRecordInput {
  const notes = [...ep.inspected.reasons];
  if (note) notes.push(note);
  const touched = ep.diff.entries.filter((e) => e.type !== "ticket_comments" && e.type !== "tickets").slice(0, 50);
  return {
    run,
    world: ep.world.id,
    tickets: [ticket],
    agent,
    // The twin's traffic says whether an agent reached an account; a tools world's agent calls tools instead (as tools run records it).
    traffic: tools ? null : ep.traffic,
    checks: [],
    grades: [{ ticket, verdict: ep.inspected.verdict, reply: ep.agent.reply, evidence: { diff: touched.map((e) => ({ type: e.type, id: e.id, op: e.op })), reply_sentences: [], notes } }],
  };
}

/** The tiers as rubric tickets, so the shared results builder counts and reports each tier like a keyed task. */
export function familyRubric(fam: LoadedFamily, tiers: LoadedTier[]): RubricDocument {
  return {
    version: 1,
    seed: { name: fam.doc!.root, hash: tiers[0]?.seedHash ?? "" },
    currency: "usd",
    mode: "isolated",
    invariants: [],
    budget: null,
    plan_names: [],
    tickets: tiers.map((t, i) => ({
      id: i + 1,
      label: t.folder,
      subject: t.doc.ticket?.subject ?? t.doc.description.slice(0, 120),
      requester: { email: t.doc.ticket?.requester ?? "agent@tools.worlds.invalid", name: t.doc.ticket?.requester_name ?? t.folder },
      customer: null,
      candidates: [],
      decoys: [],
      claim: "none",
      expect: { action: "none", amount: null, target: null, target_any: [], price: null, line: `verify: ${t.doc.verify.join("; ")}` },
      terminal_status: ["solved"],
      trap_class: `tier ${t.doc.tier}`,
      priority: "normal",
      tags: t.doc.difficulty_methods,
    })),
  };
}

export async function buildFamilyInput(o: { fam: LoadedFamily; tiers: LoadedTier[]; runs: number; argv: readonly string[]; agentFlags?: string[]; serverFlags: string[]; serverEnv: ServerEnv; sourceFlags: string[]; replayFlags: string[]; command: string[]; episodes: EpisodeRecordInput[]; interrupted: string | null }): Promise<BuildInputRaw> {
  const rubric = familyRubric(o.fam, o.tiers);
  const familyHash = await sha256Hex(canonicalJson(o.tiers.map((t) => ({ doc: t.doc, instruction: t.instruction, seed: t.seedHash }))));
  return {
    mode: "isolated",
    runs_requested: o.runs,
    tasks: { file: o.fam.dir, hashes: { file: familyHash, seed: o.tiers[0]?.seedHash ?? familyHash, rubric: await sha256Hex(canonicalJson(rubric)) }, pack: null },
    rubric,
    invocation: { agent_command: [...o.argv], ...(o.agentFlags ? { agent_flags: o.agentFlags } : {}), server_flags: o.serverFlags, server_env: o.serverEnv, replay_flags: o.replayFlags, source_flags: o.sourceFlags, command: o.command },
    episodes: o.episodes,
    interrupted: o.interrupted ? { signal: o.interrupted } : null,
  };
}
