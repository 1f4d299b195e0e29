import { Hono } from "hono";
import type { AppEnv } from "../../env";
import { BUNDLED_SEEDS } from "../../seeds/bundled";
import { parseSeed, seedHash } from "../../core/seed/parse";
import { adminError } from "./errors";

export const seeds = new Hono<AppEnv>();

seeds.get("/", async (c) => {
  const out = [];
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
  return c.json({ data: out });
});

seeds.get("/:name", (c) => {
  const doc = BUNDLED_SEEDS[c.req.param("name")];
  if (!doc) return adminError(c, 404, "seed_not_found", `No bundled seed named '${c.req.param("name")}'. GET /admin/seeds lists them.`);
  return c.json(doc);
});
