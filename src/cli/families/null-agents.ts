// The null agents validate runs on real worlds, like the gold chain: agents that look busy and solve nothing.
// A reply-only agent answers plausibly and calls nothing; a read-only agent makes every read the tier offers and
// then answers; a wrong-object agent makes the gold chain's writes on a lookalike record. verify must fail each:
// a tier one of them passes measures nothing, and the problem names the agent and the checks that let it through.
import type { AdminClient, CreatedWorld } from "../client";
import type { FamilyProblem } from "../../core/families/rules";
import type { GoldStep } from "../../core/families/schema";
import type { Snapshot } from "../../core/families/verify/evaluate";
import { isWrite } from "../../core/families/methods";
import type { LoadedTier } from "./load";
import { replayGold, verifyEnd } from "./world";

const LIST_TIMEOUT_MS = 30_000;

export interface NullAgentRun {
  server: { client: AdminClient; url: string };
  tier: LoadedTier;
  snapshot: Snapshot;
}

/** What a plausible agent tells the user: the gold solution's own words, else a generic all-done. */
export function plausibleReply(tier: LoadedTier): string {
  const replied = [...tier.doc.gold].reverse().find((s) => "tool" in s && s.tool === "reply_to_ticket" && typeof s.arguments.body === "string");
  return (replied && "tool" in replied ? String(replied.arguments.body) : null) ?? tier.doc.gold_reply ?? "Done: I have taken care of everything you asked for.";
}

/** The world's read tools, as its tool list marks them (MCP's readOnlyHint). */
export async function worldReadTools(world: CreatedWorld, serverUrl: string): Promise<string[]> {
  const base = world.tools_url ?? `${serverUrl}/tools/v1`;
  const res = await fetch(`${base}/list?format=mcp`, { headers: { authorization: `Bearer ${world.key}` }, signal: AbortSignal.timeout(LIST_TIMEOUT_MS) });
  if (!res.ok) throw new Error(`the world's tool list answered ${res.status}`);
  const body = (await res.json()) as { tools?: { name: string; annotations?: { readOnlyHint?: boolean } }[] };
  return (body.tools ?? []).filter((t) => t.annotations?.readOnlyHint === true).map((t) => t.name);
}

/** Every read the tier offers: each gold read as made, and each other offered read tool once without arguments. */
export function readOnlyChain(tier: LoadedTier, reads: readonly string[]): GoldStep[] {
  const gold = tier.doc.gold.filter((s) => !isWrite(s, tier.effects));
  const called = new Set(gold.flatMap((s) => ("tool" in s ? [s.tool] : [])));
  const others = tier.offered.filter((t) => reads.includes(t) && !called.has(t)).map((tool): GoldStep => ({ tool, arguments: {} }));
  return [...gold, ...others];
}

/** The gold chain with each record its writes name swapped for that record's lookalike; null without one. */
export function wrongObjectChain(tier: LoadedTier): GoldStep[] | null {
  if (!tier.lookalikes.length) return null;
  const swap = new Map(tier.lookalikes.map((l) => [l.target, l.id]));
  const sub = (v: unknown, depth: number): unknown => {
    if (depth > 8) return v;
    if (typeof v === "string") return swap.get(v) ?? v;
    if (Array.isArray(v)) return v.map((x) => sub(x, depth + 1));
    if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, sub(x, depth + 1)]));
    return v;
  };
  return tier.doc.gold.map((s): GoldStep => {
    if (!isWrite(s, tier.effects)) return s;
    if ("tool" in s) return { tool: s.tool, arguments: sub(s.arguments, 0) as Record<string, unknown> };
    const [method, path] = s.rest.split(" ");
    const rest = `${method} ${path.split("/").map((p) => swap.get(p) ?? p).join("/")}`;
    return { rest, ...(s.form ? { form: sub(s.form, 0) as typeof s.form } : {}), ...(s.json ? { json: sub(s.json, 0) as Record<string, unknown> } : {}) };
  });
}

function passed(tier: LoadedTier, agent: string, what: string, results: { check: string; held: boolean }[]): FamilyProblem {
  return {
    tier: tier.folder,
    rule: "null_agents",
    message: `the ${agent} agent (${what}) passes verify: ${results.map((r) => r.check).join("; ")} all held for it; add a check that only the task's change makes true`,
  };
}

/** Runs a chain on a fresh world (refused calls and all, as a careless agent goes on) and verifies its end. */
async function runChain(r: NullAgentRun, steps: readonly GoldStep[], reply: string) {
  const { client, url } = r.server;
  const world = await client.createWorld(r.tier.worldSeed!);
  let ended = false;
  try {
    await replayGold(world, url, steps, { keepGoing: true });
    const { diff } = await client.endWorld(world.id);
    ended = true;
    return verifyEnd(r.tier, r.snapshot, diff, reply);
  } finally {
    if (!ended) await client.deleteWorld(world.id).catch(() => undefined);
  }
}

/** The three null agents on one tier; `untouched` is the diff of a world nobody touched. */
export async function nullAgentProblems(r: NullAgentRun, untouched: Parameters<typeof verifyEnd>[2], reads: readonly string[]): Promise<{ problems: FamilyProblem[]; ran: string[] }> {
  const out: FamilyProblem[] = [];
  const ran = ["reply-only", "read-only"];
  const reply = plausibleReply(r.tier);
  const replyOnly = verifyEnd(r.tier, r.snapshot, untouched, reply);
  if (replyOnly.passed) out.push(passed(r.tier, "reply-only", "no call, then a plausible reply", replyOnly.results));
  const readOnly = await runChain(r, readOnlyChain(r.tier, reads), reply);
  if (readOnly.passed) out.push(passed(r.tier, "read-only", "every read the tier offers, then a plausible reply", readOnly.results));
  const wrong = wrongObjectChain(r.tier);
  if (wrong) {
    ran.push("wrong-object");
    const v = await runChain(r, wrong, reply);
    const on = r.tier.lookalikes.map((l) => `${l.id} for ${l.target}`).join(", ");
    if (v.passed) out.push(passed(r.tier, "wrong-object", `the gold chain's writes on lookalikes: ${on}`, v.results));
  }
  return { problems: out, ran };
}
