// A task family on disk: `family.yaml` at its root and one `tier.yaml` per tier folder, as zod schemas. Every
// object is strict (an unknown field is an error, as in every worlds document). A tier names its world's seed,
// the ticket or request the agent gets (its body is the folder's instruction.md), the gold chain that solves it
// on the world's own surfaces, and the verify checks that decide any episode. Nothing here is ever executed.
import { z } from "zod";
import { DIFFICULTY_METHODS } from "./vocabulary";

const text = z.string().trim().min(1);
/** Family roots are identifiers: the tier folders are `<root>_t<N>`. */
export const ROOT_PATTERN = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;
const json = z.record(z.string(), z.unknown());

export const familyDocument = z.strictObject({
  version: z.literal(1),
  root: z.string().regex(ROOT_PATTERN, "must be lowercase words joined by _ (e.g. acme_refunds)").max(64),
  description: text.max(500),
  /** What kind of world every tier runs on. */
  world: z.enum(["account", "tools"]),
  /** Tools worlds: the tool file beside family.yaml whose tools the tiers offer, imported as `worlds tools init` does. */
  tools: z
    .strictObject({
      file: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, "must be a file name beside family.yaml"),
      format: z.enum(["auto", "openai", "mcp", "openapi"]).default("auto"),
      /** Effects the file does not state. */
      read: z.array(z.string()).default([]),
      write: z.array(z.string()).default([]),
    })
    .optional(),
});
export type FamilyDocument = z.infer<typeof familyDocument>;

/** The generator a tier 2+ seed comes from: a built-in, named, with a fixed PRNG seed; never code from the file. */
export const generatorRef = z.strictObject({
  generator: z.string().regex(/^[a-z][a-z0-9-]*$/),
  /** The story the crowd is added to: `seed.json` in the tier folder, or a bundled seed's name. */
  base: text,
  prng_seed: z.number().int().min(0).max(2 ** 32 - 1),
  customers: z.number().int().min(1).max(20_000),
  /** Crowd accounts that share one email address with another crowd account (pairs). */
  shared_emails: z.number().int().min(0).max(5_000).default(0),
  /** The generated seed's SHA-256 (canonical JSON): validate regenerates it twice and compares. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/, "must be the generated seed's sha256 (64 hex digits)"),
});
export type GeneratorRef = z.infer<typeof generatorRef>;

export const seedRef = z.union([
  z.string().regex(/^[a-z0-9][a-z0-9-]*$/, "must be a bundled seed name (e.g. acme-small) or {file: seed.json} or a generator reference"),
  z.strictObject({ file: z.literal("seed.json") }),
  generatorRef,
]);
export type SeedRef = z.infer<typeof seedRef>;

/** One call of the gold chain: a tool of the world's tool surface, or a REST request on its twin. */
export const goldStep = z.union([
  z.strictObject({ tool: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/), arguments: json.default({}) }),
  z.strictObject({
    rest: z.string().regex(/^(GET|POST|PUT|DELETE) \/(v1|api\/v2)\/[A-Za-z0-9_./%-]*(\?[^\s]*)?$/, "must be '<GET|POST|PUT|DELETE> /v1/...' or '... /api/v2/...'"),
    /** Billing API bodies are form-encoded (flat keys, `items[0][price]` style). */
    form: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
    /** Help desk bodies are JSON. */
    json: json.optional(),
  }),
]);
export type GoldStep = z.infer<typeof goldStep>;

/** A real calendar day (2099-13-45 is not one). */
export function isCalendarDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === s;
}

/** The id `family gate` gives the run it records: its day and the start of its results file's sha256. */
export const RUN_ID_PATTERN = /^gate-(\d{4}-\d{2}-\d{2})-([0-9a-f]{12})$/;
export const RUNS_DIR = "runs";

export const passRate = z.strictObject({
  /** How the agent was run: a command, the built-in model agent, or an HTTP agent. */
  solver: z.enum(["command", "model", "agent-url"]),
  /** The agent: the command as typed, provider:model, or the URL. */
  model: text.max(500),
  k: z.number().int().min(1).max(1000),
  value: z.number().min(0).max(1),
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date, YYYY-MM-DD").refine(isCalendarDate, "is not a calendar date"),
  /** The gate run that measured it: its results are the family's runs/<run>.json (or the file named by results). */
  // Optional here so that validate can say why a hand-written entry is refused (calibration.ts), not just "required".
  run: z.string().regex(RUN_ID_PATTERN, "must be the id of the gate run that measured this rate (gate-YYYY-MM-DD-<12 hex>, written by worlds family gate): a pass rate comes only from a gate run").optional(),
  /** The results file's own name when it is not runs/<run>.json: a file of the family's runs/ folder. */
  results: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}\.json$/, "must be a .json file name in the family's runs/ folder").optional(),
  /** The sha256 of the results file's bytes, as the gate wrote it. */
  results_sha256: z.string().regex(/^[0-9a-f]{64}$/, "must be the results file's sha256 (64 hex digits)").optional(),
  /** Gated with --force: fewer than 20 episodes, or before the tier below had a recorded rate. Kept, but marked. */
  forced: z.literal(true).optional(),
});
export type PassRate = z.infer<typeof passRate>;

export const tierDocument = z.strictObject({
  name: z.string().regex(/^[a-z][a-z0-9_]*_t\d+$/, "must be <root>_t<N>"),
  description: text.max(500),
  tier: z.number().int().min(0).max(20),
  /** The tier this one extends (`<root>_t<N-1>`); empty for tier 0. */
  parent: z.string(),
  difficulty_methods: z.array(z.enum(DIFFICULTY_METHODS)).max(DIFFICULTY_METHODS.length),
  pass_rates: z.array(passRate).default([]),
  seed: seedRef,
  /** Account worlds: the ticket the instruction arrives as (its body is instruction.md). */
  ticket: z.strictObject({ requester: z.email(), requester_name: text.optional(), subject: text.max(200) }).optional(),
  /** The world's tools the tier involves, beyond those its gold chain calls (distractors included). */
  tools: z.array(z.string().regex(/^[A-Za-z0-9_-]{1,64}$/)).default([]),
  gold: z.array(goldStep).min(1).max(200),
  /** What the gold solution answers the user when no call of it replies (a tools world's agent replies on stdout). */
  gold_reply: text.max(2000).optional(),
  verify: z.array(z.string().min(1)).min(1).max(100),
});
export type TierDocument = z.infer<typeof tierDocument>;

export const FAMILY_FILE = "family.yaml";
export const TIER_FILE = "tier.yaml";
export const INSTRUCTION_FILE = "instruction.md";
export const SEED_FILE = "seed.json";
