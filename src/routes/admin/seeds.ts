import { Hono } from "hono";
import type { AppEnv } from "../../env";
import { BUNDLED_SEEDS } from "../../seeds/bundled";
import { parseSeed, seedHash } from "../../core/world/seed/parse";
import { adminError } from "./errors";

export const seeds = new Hono<AppEnv>();

// The bundled seeds are fixed for the life of the bundle, so their summaries are computed once per isolate: the
// list parses and hashes every one (2.6 MB for the library), which took about 90 ms, and every `worlds passk`
// and `worlds doctor` asks for it when it connects.
let bundledSummaries: Promise<SeedSummary[]> | null = null;

interface SeedSummary {
  name: string;
  hash: string;
  clock: string;
  description: string | null;
  counts: Record<string, number>;
}

async function summarizeBundled(): Promise<SeedSummary[]> {
  const out: SeedSummary[] = [];
  for (const [name, doc] of Object.entries(BUNDLED_SEEDS).sort(([a], [b]) => a.localeCompare(b))) {
    const parsed = parseSeed(doc);
    if (!parsed.ok) continue;
    const d = parsed.seed.data;
    out.push({
      name,
      hash: await seedHash(parsed.seed),
      clock: parsed.seed.clock,
      description: parsed.seed.description ?? null,
      counts: Object.fromEntries(Object.entries(d).map(([k, v]) => [k, v.length])),
    });
  }
  return out;
}

seeds.get("/", async (c) => {
  bundledSummaries ??= summarizeBundled().catch((e: unknown) => {
    bundledSummaries = null; // a failure is not remembered
    throw e;
  });
  return c.json({ data: await bundledSummaries });
});

seeds.get("/:name", (c) => {
  const doc = BUNDLED_SEEDS[c.req.param("name")];
  if (!doc) return adminError(c, 404, "seed_not_found", `No bundled seed named '${c.req.param("name")}'. GET /admin/seeds lists them.`);
  return c.json(doc);
});
