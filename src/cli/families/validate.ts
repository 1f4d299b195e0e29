// `worlds family validate`: the rules checked on the files (rules.ts) and, on a real world, the two that only a
// world can answer: the gold chain replayed on a fresh world passes verify, and verify fails on the world left
// untouched (an agent that does nothing must not pass).
import { existsSync, readdirSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { checkFamily, type FamilyProblem } from "../../core/families/rules";
import { FAMILY_FILE } from "../../core/families/schema";
import type { ConnectedServer } from "../server/connect";
import { bundledFamiliesDir, type LoadedFamily, type LoadedTier } from "./load";
import { replayGold, untouchedSnapshot, verifyEnd } from "./world";
import { nullAgentProblems, worldReadTools } from "./null-agents";
import { calibrationProblems } from "./calibration";

/** Roots of every other family in sight: the bundled ones and the folders beside this one. */
export function otherFamilyRoots(dir: string): string[] {
  const self = realpathSync(dir);
  const roots = new Set<string>();
  for (const parent of new Set([bundledFamiliesDir(), dirname(self)])) {
    if (!existsSync(parent)) continue;
    for (const name of readdirSync(parent)) {
      const p = join(parent, name);
      if (existsSync(join(p, FAMILY_FILE)) && realpathSync(p) !== self) roots.add(name);
    }
  }
  return [...roots].sort();
}

export function staticProblems(fam: LoadedFamily): FamilyProblem[] {
  if (!fam.doc) return fam.problems;
  return [...fam.problems, ...checkFamily({ doc: fam.doc, tiers: fam.tiers, otherRoots: otherFamilyRoots(fam.dir) }), ...calibrationProblems(fam)];
}

/** The world rules for one tier: each problem names the tier, the rule and what the world showed. */
export async function worldProblems(tier: LoadedTier, server: ConnectedServer): Promise<{ problems: FamilyProblem[]; nullAgents: string[] }> {
  if (!tier.worldSeed) return { problems: [], nullAgents: [] };
  const out: FamilyProblem[] = [];
  const { client } = server;
  const untouched = await client.createWorld(tier.worldSeed);
  let snapshot;
  let untouchedDiff;
  let reads: string[];
  try {
    snapshot = await untouchedSnapshot(client, untouched, tier);
    untouchedDiff = await client.diff(untouched.id);
    reads = await worldReadTools(untouched, server.url);
    const still = verifyEnd(tier, snapshot, untouchedDiff, null);
    if (still.passed) out.push({ tier: tier.folder, rule: "untouched_fails", message: `verify passes on the untouched world, so an agent that does nothing would pass; add a check the task's change makes true (checks: ${tier.doc.verify.join("; ")})` });
  } finally {
    await client.deleteWorld(untouched.id).catch(() => undefined);
  }
  const world = await client.createWorld(tier.worldSeed);
  let ended = false;
  try {
    const gold = await replayGold(world, server.url, tier.doc.gold);
    const { diff } = await client.endWorld(world.id);
    ended = true;
    if (gold.failure) out.push({ tier: tier.folder, rule: "gold_passes", message: `the gold chain does not run on a fresh world: ${gold.failure}` });
    else {
      const v = verifyEnd(tier, snapshot, diff, gold.reply ?? tier.doc.gold_reply ?? null);
      for (const r of v.results.filter((x) => !x.held)) out.push({ tier: tier.folder, rule: "gold_passes", message: `after the gold chain, verify's ${r.check} fails: ${r.detail}` });
    }
  } finally {
    if (!ended) await client.deleteWorld(world.id).catch(() => undefined);
  }
  // Only a tier verify can tell apart from nothing is worth asking whether it tells apart a look-alike of work.
  if (out.some((p) => p.rule === "untouched_fails")) return { problems: out, nullAgents: [] };
  const nulls = await nullAgentProblems({ server, tier, snapshot }, untouchedDiff, reads);
  return { problems: [...out, ...nulls.problems], nullAgents: nulls.ran };
}

export function formatFamilyProblem(p: FamilyProblem): string {
  return `${p.tier ?? "family"} [${p.rule}]: ${p.message}`;
}
