// Running a family's tiers against an agent: each tier k times, each episode in a fresh world made from the
// tier's seed, the agent handed the tier's instruction (as a ticket on an account world, as the request on a
// tools world), and every episode graded by the tier's verify checks on the world's end. Records are the
// results contract's, so a family run reads like any crash test (statuses, exit codes, pass^k, Wilson).
import { infraRecord } from "../../core/runs/index";
import type { BuildInputRaw, EpisodeRecordInput } from "../../core/results/index";
import type { RubricDocument } from "../../core/rubric/schema";
import { canonicalJson, sha256Hex } from "../../core/util/canonical";
import { stderrNote } from "../../core/results/stderr";
import type { Snapshot } from "../../core/families/verify/evaluate";
import { verifyGrade, type VerifyGrade } from "../../core/families/grade";
import { createLimiter } from "../agent/limiter";
import { agentSucceeded } from "../agent/runner";
import { runEpisode, type EpisodeResult } from "../episode/episode";
import { annotateRecord, type InProcessAgent } from "../episode/in-process";
import { agentRecord } from "../passk/record";
import { describeOutcome } from "../render/outcome";
import type { ConnectedServer } from "../server/connect";
import type { LoadedFamily, LoadedTier } from "./load";
import { untouchedSnapshot, verifyEnd } from "./world";

export interface FamilyRunOptions {
  tiers: LoadedTier[];
  runs: number;
  argv: readonly string[];
  inProcess?: InProcessAgent;
  server: ConnectedServer;
  concurrency: number;
  timeoutMs: number;
  signal: AbortSignal;
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
  const agentSlot = createLimiter(o.concurrency);
  const limit = createLimiter(o.concurrency * 2);
  const records: Array<EpisodeRecordInput | null> = new Array(jobs.length).fill(null);
  let done = 0;
  await Promise.all(
    jobs.map((job, i) =>
      limit(async () => {
        if (o.signal.aborted) return;
        const ep = await runEpisode<VerifyGrade>(
          { client: o.server.client, serverUrl: o.server.url, seed: job.tier.worldSeed!, argv: o.argv, inProcess: o.inProcess, taskJson: job.tier.taskJson, mode: "isolated", timeoutMs: o.timeoutMs, keepWorld: false, signal: o.signal, agentSlot },
          (view, agent) => verifyGrade(verifyEnd(job.tier, snaps.get(job.tier.folder)!, view.diff, agent.reply).results),
        );
        if (o.signal.aborted && !ep.inspected) return;
        const record = toRecord(job.run, job.ticket, ep);
        annotateRecord(record, ep.agent);
        records[i] = record;
        o.onEpisode?.(++done, jobs.length);
      }),
    ),
  );
  return records.filter((r): r is EpisodeRecordInput => r !== null);
}

function toRecord(run: number, ticket: number, ep: EpisodeResult<VerifyGrade>): EpisodeRecordInput {
  const world = ep.world?.id ?? null;
  if (ep.create_error) return infraRecord(run, [ticket], world, { stage: "world_create", message: ep.create_error.message });
  const out = ep.agent!;
  const agent = agentRecord(out);
  if (!out.started) return infraRecord(run, [ticket], world, { stage: "agent_start", message: agent.start_error ?? describeOutcome(out) }, agent, ep.traffic);
  if (ep.inspect_error || !ep.inspected || !ep.diff) return infraRecord(run, [ticket], world, { stage: ep.diff ? "grade" : "server", message: ep.inspect_error?.message ?? "the world was not graded" }, agent, ep.traffic);
  const g = ep.inspected;
  const notes = [...g.reasons];
  const note = agentSucceeded(out) ? null : stderrNote(out.stderr, 5);
  if (note) notes.push(note);
  const touched = ep.diff.entries.filter((e) => e.type !== "ticket_comments" && e.type !== "tickets").slice(0, 50);
  return {
    run,
    world,
    tickets: [ticket],
    agent,
    traffic: ep.traffic,
    checks: [],
    grades: [{ ticket, verdict: g.verdict, reply: out.reply, evidence: { diff: touched.map((e) => ({ type: e.type, id: e.id, op: e.op })), reply_sentences: [], notes } }],
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

export async function buildFamilyInput(o: { fam: LoadedFamily; tiers: LoadedTier[]; runs: number; argv: readonly string[]; agentFlags?: string[]; serverFlags: string[]; sourceFlags: string[]; replayFlags: string[]; command: string[]; episodes: EpisodeRecordInput[]; interrupted: string | null }): Promise<BuildInputRaw> {
  const rubric = familyRubric(o.fam, o.tiers);
  const familyHash = await sha256Hex(canonicalJson(o.tiers.map((t) => ({ doc: t.doc, instruction: t.instruction, seed: t.seedHash }))));
  return {
    mode: "isolated",
    runs_requested: o.runs,
    tasks: { file: o.fam.dir, hashes: { file: familyHash, seed: o.tiers[0]?.seedHash ?? familyHash, rubric: await sha256Hex(canonicalJson(rubric)) }, pack: null },
    rubric,
    invocation: { agent_command: [...o.argv], ...(o.agentFlags ? { agent_flags: o.agentFlags } : {}), server_flags: o.serverFlags, replay_flags: o.replayFlags, source_flags: o.sourceFlags, command: o.command },
    episodes: o.episodes,
    interrupted: o.interrupted ? { signal: o.interrupted } : null,
  };
}
