// `passk --seed S --rubric R`: a seed whose desk already holds its tickets (the starter library) and the rubric
// that keys them, instead of a tasks file. Produces what the tasks compiler would, so the run proceeds the same.
import { readFileSync } from "node:fs";
import { parseSeed, seedHash } from "../../core/world/seed/parse";
import { rubricDocument, type RubricDocument } from "../../core/rubric/schema";
import type { SeedDocument } from "../../core/world/seed/schema";
import { summaryLine } from "../../core/kinds/account/tasks/index";
import { canonicalJson, sha256Hex } from "../../core/util/canonical";
import { formatPath } from "../../core/world/seed/parse";
import { ServerError, type AdminClient } from "../client";
import type { LoadOutcome } from "./load";

export interface SeedAndRubric {
  seed: SeedDocument;
  rubric: RubricDocument;
  file: { mode: "isolated" | "shift"; runs?: number; scenario?: string | null };
  summary: string;
  hashes: { file: string; seed: string; rubric: string };
}

export type LibraryOutcome = { ok: true; compiled: SeedAndRubric } | Extract<LoadOutcome, { ok: false }>;

export async function loadSeedAndRubric(seedRef: string, rubricPath: string, client: AdminClient): Promise<LibraryOutcome> {
  let rubricText: string;
  try {
    rubricText = readFileSync(rubricPath, "utf8");
  } catch (e) {
    return fail(2, `cannot read the rubric ${rubricPath} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`, "pass a rubric file with --rubric (for example rubrics/acme-prod-library.json)");
  }
  let json: unknown;
  try {
    json = JSON.parse(rubricText);
  } catch (e) {
    return fail(2, `${rubricPath} is not valid JSON: ${(e as Error).message}`, "pass the rubric file written with the seed");
  }
  const parsedRubric = rubricDocument.safeParse(json);
  if (!parsedRubric.success) {
    const first = parsedRubric.error.issues[0];
    return fail(2, `${rubricPath} is not a rubric: ${formatPath(first.path)}: ${first.message}`, "pass the rubric file written with the seed");
  }
  let seedDoc: unknown;
  try {
    seedDoc = seedRef.endsWith(".json") ? JSON.parse(readFileSync(seedRef, "utf8")) : await client.seed(seedRef);
  } catch (e) {
    if (e instanceof ServerError && e.kind === "not_found") return fail(3, `the server holds no seed named '${seedRef}'`, "name a seed the server holds (GET /admin/seeds), or a .json seed file");
    if (e instanceof ServerError) throw e;
    return fail(2, `cannot read the seed ${seedRef}: ${(e as Error).message}`, "pass a seed name the server holds or a .json seed file with --seed");
  }
  const seed = parseSeed(seedDoc);
  if (!seed.ok) return fail(2, `the seed ${seedRef} is not valid: ${seed.issues[0].path}: ${seed.issues[0].message}`, "fix the seed, or regenerate it");
  const rubric = parsedRubric.data;
  const hash = await seedHash(seed.seed);
  if (rubric.seed.hash !== hash)
    return fail(2, `${rubricPath} keys seed '${rubric.seed.name}' ${rubric.seed.hash.slice(0, 12)}, but ${seedRef} is ${hash.slice(0, 12)}`, "pass the rubric written with this seed (they are generated together)");
  const onDesk = new Set(seed.seed.data.tickets.map((t) => t.id));
  const missing = rubric.tickets.filter((t) => !onDesk.has(t.id)).map((t) => t.label);
  if (missing.length) return fail(2, `${rubricPath} keys tickets the seed's desk does not hold: ${missing.slice(0, 5).join(", ")}`, "pass the rubric written with this seed");
  return {
    ok: true,
    compiled: {
      seed: seed.seed,
      rubric,
      file: { mode: rubric.mode },
      summary: summaryLine(rubric, seed.seed.name),
      hashes: { file: await sha256Hex(rubricText), seed: hash, rubric: await sha256Hex(canonicalJson(rubric)) },
    },
  };
}

function fail(exitCode: 2 | 3, reason: string, nextAction: string): Extract<LoadOutcome, { ok: false }> {
  return { ok: false, exitCode, reason, nextAction, problems: [] };
}
