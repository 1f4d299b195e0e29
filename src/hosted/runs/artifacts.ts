// R2 reads and writes for runs. Content-addressed objects (seeds, rubrics) are written once; reads of them are
// cached per isolate, since every episode of a run needs the same (possibly multi-megabyte) seed.
import type { Env } from "../../env";
import { parseSeed } from "../../core/world/seed/parse";
import type { SeedDocument } from "../../core/world/seed/schema";
import { rubricDocument, type RubricDocument } from "../../core/rubric/schema";
import { parseToolsRunPlan, type ToolsRunPlan } from "../../core/kinds/tools/run/plan";
import { evalsRunPlan, type EvalsRunPlan } from "../../core/kinds/replay/task-format/hosted";

const JSON_TYPE = { contentType: "application/json" };

/** Stores a document under its content hash unless it is already there. */
export async function putContent(bucket: R2Bucket, key: string, doc: unknown): Promise<void> {
  if (await bucket.head(key)) return;
  await bucket.put(key, JSON.stringify(doc), { httpMetadata: JSON_TYPE });
}

/** A missing or corrupt artefact. Like any other failure it is retried, and ends in the dead-letter queue if it persists. */
export class ArtifactError extends Error {}

const seeds = new Map<string, SeedDocument>();
const rubrics = new Map<string, RubricDocument>();
const toolsPlans = new Map<string, ToolsRunPlan>();
const CACHE_LIMIT = 4;

function remember<T>(cache: Map<string, T>, key: string, value: T): T {
  cache.set(key, value);
  while (cache.size > CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  return value;
}

/** A seed stored by putContent (key seeds/<hash>.json). */
export async function loadSeed(env: Env, key: string): Promise<SeedDocument> {
  const hit = seeds.get(key);
  if (hit) return hit;
  const parsed = parseSeed(await readJson(env.ARTIFACTS, key));
  if (!parsed.ok) throw new ArtifactError(`${key} is not a valid seed: ${parsed.issues.slice(0, 3).map((i) => `${i.path}: ${i.message}`).join("; ")}`);
  return remember(seeds, key, parsed.seed);
}

/** A rubric stored by putContent (key rubrics/<hash>.json). */
export async function loadRubric(env: Env, key: string): Promise<RubricDocument> {
  const hit = rubrics.get(key);
  if (hit) return hit;
  const parsed = rubricDocument.safeParse(await readJson(env.ARTIFACTS, key));
  if (!parsed.success) throw new ArtifactError(`${key} is not a valid rubric: ${parsed.error.issues[0]?.message ?? ""}`);
  return remember(rubrics, key, parsed.data);
}

/** A tools run's plan (its generated tasks), stored by putContent under the run's seed key. */
export async function loadToolsPlan(env: Env, key: string): Promise<ToolsRunPlan> {
  const hit = toolsPlans.get(key);
  if (hit) return hit;
  const parsed = parseToolsRunPlan(await readJson(env.ARTIFACTS, key));
  if (!parsed.ok) throw new ArtifactError(`${key} is not a valid tools plan: ${parsed.message}`);
  return remember(toolsPlans, key, parsed.plan);
}

/** An evals run's plan (its task file's text and models), stored by putContent under the run's seed key. */
export async function loadEvalsPlan(env: Env, key: string): Promise<EvalsRunPlan> {
  const parsed = evalsRunPlan.safeParse(await readJson(env.ARTIFACTS, key));
  if (!parsed.success) throw new ArtifactError(`${key} is not a valid evals plan: ${parsed.error.issues[0]?.message ?? ""}`);
  return parsed.data;
}

async function readJson(bucket: R2Bucket, key: string): Promise<unknown> {
  const object = await bucket.get(key);
  if (!object) throw new ArtifactError(`${key} is missing from the artifacts bucket`);
  try {
    return JSON.parse(await object.text());
  } catch (e) {
    throw new ArtifactError(`${key} is not valid JSON: ${(e as Error).message}`);
  }
}
