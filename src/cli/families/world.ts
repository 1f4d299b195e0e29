// A tier on a real world: the untouched world's objects (what verify reads, with each episode's diff laid over),
// and the gold chain replayed call by call on the world's own surfaces (its tool surface, or its REST twin) with
// the world's key, exactly as an agent would make them.
import type { AdminClient, CreatedWorld } from "../client";
import type { ObjectType, WorldDiff } from "../../core/world/diff/types";
import type { GoldStep } from "../../core/families/schema";
import { collectionsRead } from "../../core/families/verify/grammar";
import { endState, evaluateChecks, type CheckResult, type Snapshot } from "../../core/families/verify/evaluate";
import type { LoadedTier } from "./load";

const CALL_TIMEOUT_MS = 60_000;

/** The collections a tier's checks read, each as the untouched world holds it. */
export async function untouchedSnapshot(client: AdminClient, world: CreatedWorld, tier: LoadedTier): Promise<Snapshot> {
  const types = [...new Set(tier.checks.flatMap(collectionsRead))] as ObjectType[];
  const snapshot: Snapshot = {};
  for (const t of types) snapshot[t] = await client.objects(world.id, t);
  return snapshot;
}

export interface GoldOutcome {
  /** The first call the world refused, in words; null when every call went through. */
  failure: string | null;
  /** The text the chain's last reply_to_ticket posted, if any (the gold's reply). */
  reply: string | null;
}

/** `keepGoing`: a refused call does not stop the chain (a null agent goes on as a careless agent would). */
export async function replayGold(world: CreatedWorld, serverUrl: string, steps: readonly GoldStep[], opts: { keepGoing?: boolean } = {}): Promise<GoldOutcome> {
  let reply: string | null = null;
  for (const [i, step] of steps.entries()) {
    const res = "tool" in step ? await callTool(world, serverUrl, step.tool, step.arguments) : await callRest(world, step);
    if (res.status >= 400 && !opts.keepGoing) return { failure: `gold[${i}] ${"tool" in step ? step.tool : step.rest} was refused (${res.status}): ${res.text.slice(0, 300)}`, reply };
    if ("tool" in step && step.tool === "reply_to_ticket" && typeof step.arguments.body === "string") reply = step.arguments.body;
  }
  return { failure: null, reply };
}

async function callTool(world: CreatedWorld, serverUrl: string, name: string, args: unknown): Promise<{ status: number; text: string }> {
  const base = world.tools_url ?? `${serverUrl}/tools/v1`;
  const res = await fetch(`${base}/call`, {
    method: "POST",
    headers: { authorization: `Bearer ${world.key}`, "content-type": "application/json" },
    body: JSON.stringify({ name, arguments: args }),
    signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
  });
  return { status: res.status, text: await res.text() };
}

async function callRest(world: CreatedWorld, step: Extract<GoldStep, { rest: string }>): Promise<{ status: number; text: string }> {
  const [method, path] = step.rest.split(" ");
  const base = path.startsWith("/v1/") ? world.stripe_api_base : world.zendesk_url;
  const headers: Record<string, string> = { authorization: `Bearer ${world.key}` };
  let body: string | undefined;
  if (step.form) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(Object.entries(step.form).map(([k, v]) => [k, String(v)])).toString();
  } else if (step.json) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(step.json);
  }
  const res = await fetch(new URL(path, base), { method, headers, body, signal: AbortSignal.timeout(CALL_TIMEOUT_MS) });
  return { status: res.status, text: await res.text() };
}

export function verifyEnd(tier: LoadedTier, snapshot: Snapshot, diff: WorldDiff, reply: string | null): { passed: boolean; results: CheckResult[] } {
  const results = evaluateChecks(tier.checks, endState(snapshot, diff, reply));
  return { passed: results.every((r) => r.held), results };
}
