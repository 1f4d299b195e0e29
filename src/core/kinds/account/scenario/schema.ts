// A scenario: data that makes a world's twins misbehave the way production APIs do (rate limits, latency,
// failed writes, lagging lists). Every decision a scenario makes is a function of the world's own request
// sequence, never of time or chance, so a scenario run replays identically. Runs in Node and in the Worker.
import { z } from "zod";
import { zodIssues, type SeedIssue } from "../../../world/seed/parse";

export const SCENARIO_SERVICES = ["stripe", "helpdesk"] as const;
export type ScenarioService = (typeof SCENARIO_SERVICES)[number];

const services = z
  .array(z.enum(SCENARIO_SERVICES))
  .min(1)
  .refine((xs) => new Set(xs).size === xs.length, { message: "names a service twice" });

/**
 * The n-th request to a service (1-based, every request the world answered for that service counts, refused ones
 * included) is refused when its position in the cycle, ((n - 1) mod every) + 1, is listed in `refuse`.
 */
export const rateLimitRule = z
  .strictObject({
    kind: z.literal("rate_limit"),
    services,
    every: z.number().int().min(2).max(1000),
    refuse: z.array(z.number().int().min(1)).min(1),
    /** Seconds, sent as Retry-After. */
    retry_after: z.number().int().min(1).max(60),
  })
  .superRefine((r, ctx) => {
    if (new Set(r.refuse).size !== r.refuse.length) ctx.addIssue({ code: "custom", path: ["refuse"], message: "lists a position twice" });
    const outside = r.refuse.filter((p) => p > r.every);
    if (outside.length) ctx.addIssue({ code: "custom", path: ["refuse"], message: `positions ${outside.join(", ")} are past the cycle of ${r.every}` });
    if (r.refuse.length >= r.every) ctx.addIssue({ code: "custom", path: ["refuse"], message: "refuses every request of the cycle; leave at least one through" });
  });

/** Every answer waits `ms`; every `spike.every`-th request of a service waits `spike.ms` instead. */
export const latencyRule = z.strictObject({
  kind: z.literal("latency"),
  services,
  ms: z.number().int().min(0).max(10_000),
  spike: z.strictObject({ every: z.number().int().min(2).max(1000), ms: z.number().int().min(0).max(30_000) }).optional(),
});

/**
 * The first `failures` attempts of every distinct write fail with 503 before anything executes, then the write
 * goes through. An attempt is identified by its idempotency key, or without one by method, path and body.
 */
export const flakyWritesRule = z.strictObject({
  kind: z.literal("flaky_writes"),
  services,
  failures: z.number().int().min(1).max(5),
});

/** The first list after a write answers as the world stood before that write; later lists are current. */
export const staleReadsRule = z.strictObject({
  kind: z.literal("stale_reads"),
  services,
});

export const scenarioRule = z.discriminatedUnion("kind", [rateLimitRule, latencyRule, flakyWritesRule, staleReadsRule]);
export type ScenarioRule = z.infer<typeof scenarioRule>;
export type RateLimitRule = z.infer<typeof rateLimitRule>;
export type LatencyRule = z.infer<typeof latencyRule>;
export type FlakyWritesRule = z.infer<typeof flakyWritesRule>;
export type StaleReadsRule = z.infer<typeof staleReadsRule>;

export const SCENARIO_NAME = /^[a-z0-9][a-z0-9-]{0,62}$/;

export const scenarioDocument = z
  .strictObject({
    version: z.literal(1),
    name: z.string().regex(SCENARIO_NAME, { message: "must be lower-case letters, digits and dashes (e.g. rate-limit-storm)" }),
    description: z.string().trim().min(1),
    rules: z.array(scenarioRule).min(1),
  })
  .superRefine((doc, ctx) => {
    // Two rules of one kind on one service would make the outcome depend on rule order: refuse it.
    const seen = new Map<string, number>();
    doc.rules.forEach((r, i) => {
      for (const s of r.services) {
        const key = `${r.kind}/${s}`;
        const first = seen.get(key);
        if (first !== undefined) ctx.addIssue({ code: "custom", path: ["rules", i, "services"], message: `rules[${first}] already applies ${r.kind} to ${s}` });
        else seen.set(key, i);
      }
    });
  });
export type ScenarioDocument = z.infer<typeof scenarioDocument>;

export type ScenarioParse = { ok: true; scenario: ScenarioDocument } | { ok: false; issues: SeedIssue[] };

export function parseScenario(input: unknown): ScenarioParse {
  const parsed = scenarioDocument.safeParse(input);
  return parsed.success ? { ok: true, scenario: parsed.data } : { ok: false, issues: zodIssues(parsed.error) };
}

/** The rule of a kind that applies to a service, if any. */
export function ruleFor<K extends ScenarioRule["kind"]>(doc: ScenarioDocument | null, kind: K, service: ScenarioService): Extract<ScenarioRule, { kind: K }> | null {
  if (!doc) return null;
  for (const r of doc.rules) if (r.kind === kind && (r.services as readonly string[]).includes(service)) return r as Extract<ScenarioRule, { kind: K }>;
  return null;
}

/** Whether the n-th request (1-based) to a service falls on a refused position of the rule's cycle. */
export function refusedByRateLimit(rule: RateLimitRule, n: number): boolean {
  return rule.refuse.includes(((n - 1) % rule.every) + 1);
}

/** Milliseconds the n-th request (1-based) to a service waits before its answer. */
export function latencyFor(rule: LatencyRule, n: number): number {
  return rule.spike && n % rule.spike.every === 0 ? rule.spike.ms : rule.ms;
}
