// The rules a family must keep that can be checked without a world: its layout, names and parents, each tier a
// superset of the last and strictly harder, its difficulty methods, dates and instructions, its generated seeds
// and its recorded measurements. Each problem names the tier and the rule, so `worlds family validate` can say
// exactly what to fix. The rules that need a world (gold passes, an untouched world fails) live beside the runner.
import type { Check } from "./verify/grammar";
import type { FamilyDocument, GoldStep, TierDocument } from "./schema";
import { DIFFICULTY_METHODS, GATE_RUNS, MIN_DISTINCT_METHODS } from "./vocabulary";
import { methodProblems, repeatedCalls, type MethodTier } from "./methods";
import type { Lookalike } from "./lookalike";

export const RULES = [
  "schema",
  "layout",
  "names",
  "root_name",
  "superset",
  "longer_gold",
  "methods",
  "dates",
  "instruction",
  "generator",
  "verify_grammar",
  "tier0",
  "pass_rates",
  "gold_passes",
  "untouched_fails",
  "null_agents",
] as const;
export type Rule = (typeof RULES)[number];

export interface FamilyProblem {
  /** The tier's name, or null for the family as a whole. */
  tier: string | null;
  rule: Rule;
  message: string;
  /** Where, when known: `file:line:column`. */
  at?: string;
}

export interface TierFacts {
  folder: string;
  doc: TierDocument;
  instruction: string;
  /** The collections the tier's seed holds objects in (tools worlds: `tools`). */
  entityTypes: string[];
  /** The world's tools the tier involves: its declared tools and every tool its gold chain calls. */
  tools: string[];
  /** Every object of the tier's seed, counted over its collections. */
  entities: number;
  checks: Check[];
  /** The tools the agent is offered: an account tier's listed and gold tools, a tools tier's seed.json tools. */
  offered: string[];
  /** Each known tool's effect (the world kind's own tools, or the family's tool file). */
  effects: Record<string, "read" | "write">;
  /** For each record the gold chain writes to, the lookalike a careless agent could take for it. */
  lookalikes: Lookalike[];
}

export interface FamilyFacts {
  doc: FamilyDocument;
  tiers: TierFacts[];
  /** The roots of the other families this one must not collide with. */
  otherRoots: string[];
}

export function goldTools(gold: readonly GoldStep[]): string[] {
  return [...new Set(gold.flatMap((s) => ("tool" in s ? [s.tool] : [])))];
}

/** Trailing version or copy markers a root may not hide behind: food_truck_2, food_truck_v2, food_truck2. */
export function rootStem(root: string): string {
  return root.replace(/(_t\d+)$/, "").replace(/(_?v?\d+|_(new|copy|alt|next|hard|harder|plus))+$/, "");
}

/** Each word without a plural ending, so parcel_returns and parcel_return, acme_refunds_desk and acme_refund_desk, meet. */
function singular(stem: string): string {
  return stem
    .split("_")
    .map((w) => (w.length > 3 && /[^s]s$/.test(w) ? w.slice(0, -1) : w.length > 4 && /(ch|sh|x|ss)es$/.test(w) ? w.slice(0, -2) : w))
    .join("_");
}

export function rootCollision(root: string, other: string): boolean {
  const a = singular(rootStem(root));
  const b = singular(rootStem(other));
  return a === b || a.startsWith(`${b}_`) || b.startsWith(`${a}_`);
}

export function checkFamily(f: FamilyFacts): FamilyProblem[] {
  const out: FamilyProblem[] = [];
  const add = (tier: string | null, rule: Rule, message: string) => out.push({ tier, rule, message });
  const root = f.doc.root;

  for (const other of f.otherRoots)
    if (rootCollision(root, other)) add(null, "root_name", `the root '${root}' collides with the existing family '${other}' (the same root or a variant of it); choose a different root word`);

  const tiers = [...f.tiers].sort((a, b) => a.doc.tier - b.doc.tier);
  if (tiers.length < 2) add(null, "names", `a family needs tier 0 and at least one harder tier (found ${tiers.length})`);
  tiers.forEach((t, i) => {
    const name = t.folder;
    if (t.doc.tier !== i) add(name, "names", `tiers must run 0, 1, 2... without gaps: expected tier ${i} here, found tier ${t.doc.tier}`);
    if (t.folder !== `${root}_t${t.doc.tier}`) add(name, "names", `the folder of tier ${t.doc.tier} must be named ${root}_t${t.doc.tier}`);
    if (t.doc.name !== t.folder) add(name, "names", `name is '${t.doc.name}' but the folder is ${t.folder}`);
    const parent = t.doc.tier === 0 ? "" : `${root}_t${t.doc.tier - 1}`;
    if (t.doc.parent !== parent) add(name, "names", t.doc.tier === 0 ? `tier 0 has no parent (parent: "")` : `parent must be ${parent} (got '${t.doc.parent}')`);
    if (f.doc.world === "account" && !t.doc.ticket) add(name, "schema", "an account world's tier needs ticket: {requester, subject}: the instruction reaches the agent as that ticket");
  });

  for (let i = 1; i < tiers.length; i++) {
    const prev = tiers[i - 1];
    const t = tiers[i];
    const lostTypes = prev.entityTypes.filter((x) => !t.entityTypes.includes(x));
    if (lostTypes.length) add(t.folder, "superset", `tier ${t.doc.tier} must hold every entity type of tier ${prev.doc.tier}; missing ${lostTypes.join(", ")}`);
    const lostTools = prev.tools.filter((x) => !t.tools.includes(x));
    if (lostTools.length) add(t.folder, "superset", `tier ${t.doc.tier} must involve every tool of tier ${prev.doc.tier}; missing ${lostTools.join(", ")} (list them under tools:)`);
    if (t.entities < prev.entities) add(t.folder, "superset", `tier ${t.doc.tier}'s world holds ${t.entities} objects, fewer than tier ${prev.doc.tier}'s ${prev.entities}: a tier keeps everything of the one before`);
    if (t.doc.gold.length <= prev.doc.gold.length)
      add(t.folder, "longer_gold", `tier ${t.doc.tier}'s gold chain must be strictly longer than tier ${prev.doc.tier}'s (${t.doc.gold.length} calls, parent ${prev.doc.gold.length})`);
    if (t.doc.difficulty_methods.length === 0) add(t.folder, "methods", `tier ${t.doc.tier} must name at least one difficulty method (${DIFFICULTY_METHODS.join(", ")})`);
    for (const m of methodProblems(methodTier(t), methodTier(prev), t.doc.difficulty_methods)) add(t.folder, "methods", m);
    const repeated = t.doc.difficulty_methods.filter((m) => prev.doc.difficulty_methods.includes(m));
    if (repeated.length) add(t.folder, "methods", `${repeated.join(", ")} repeat${repeated.length === 1 ? "s" : ""} tier ${prev.doc.tier}'s method${repeated.length === 1 ? "" : "s"}; consecutive tiers must use different methods`);
  }
  const distinct = new Set(tiers.flatMap((t) => t.doc.difficulty_methods));
  if (tiers.length >= 2 && distinct.size < MIN_DISTINCT_METHODS)
    add(null, "methods", `the family uses ${distinct.size} distinct difficulty method${distinct.size === 1 ? "" : "s"} (${[...distinct].join(", ") || "none"}); it needs at least ${MIN_DISTINCT_METHODS}`);

  if (tiers[0]?.doc.tier === 0) for (const m of methodProblems(methodTier(tiers[0]), null, tiers[0].doc.difficulty_methods)) add(tiers[0].folder, "tier0", m);
  for (const t of tiers) {
    for (const r of repeatedCalls(t.doc.gold))
      add(t.folder, "longer_gold", `gold[${r.at}] repeats gold[${r.first}] exactly (${describeStep(t.doc.gold[r.at])}, the same arguments): a repeated call makes a chain longer, not harder`);
    for (const d of goldDates(t.doc.gold)) if (!mentionsDate(t.instruction, d)) add(t.folder, "dates", `the gold chain passes the date ${d}, but the instruction does not state it with its year (write ${d} or ${longDate(d)})`);
    for (const problem of dateProblems(t.instruction)) add(t.folder, "dates", problem);
    for (const problem of instructionProblems(t)) add(t.folder, "instruction", problem);
    if (t.doc.tier >= 2 && (typeof t.doc.seed !== "object" || !("generator" in t.doc.seed)))
      add(t.folder, "generator", `tier ${t.doc.tier}'s seed must come from a generator (seed: {generator: ${f.doc.world === "tools" ? "tool-ledger, base: seed.json" : "acme-crowd, base"}, prng_seed, customers, sha256}), with hundreds to thousands of entities`);
    if (t.doc.tier >= 2 && t.entities < 200) add(t.folder, "generator", `tier ${t.doc.tier}'s seed holds ${t.entities} objects; from tier 2 a seed holds hundreds to thousands`);
    for (const p of t.doc.pass_rates)
      if (p.k < GATE_RUNS && !p.forced) add(t.folder, "pass_rates", `the pass rate of ${p.model} was measured over ${p.k} episodes; a measurement needs ${GATE_RUNS} (or forced: true, from gate --force)`);
  }
  return out;
}

function methodTier(t: TierFacts): MethodTier {
  const named = t.lookalikes.find((l) => l.shared);
  return {
    tier: t.doc.tier,
    instruction: t.instruction,
    gold: t.doc.gold,
    offered: t.offered,
    effects: t.effects,
    entityTypes: t.entityTypes,
    entities: t.entities,
    lookalike: named ? `${named.id} (its ${named.shared} is ${named.target}'s)` : null,
  };
}

const describeStep = (s: GoldStep) => ("tool" in s ? s.tool : s.rest);

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** Every YYYY-MM-DD date a gold call passes (in any argument, at any depth). */
export function goldDates(gold: readonly GoldStep[]): string[] {
  const found = new Set<string>();
  const walk = (v: unknown, depth: number): void => {
    if (depth > 16) return;
    if (typeof v === "string") for (const m of v.matchAll(/\b(\d{4})-(\d{2})-(\d{2})\b/g)) found.add(m[0]);
    else if (Array.isArray(v)) v.forEach((x) => walk(x, depth + 1));
    else if (v && typeof v === "object") Object.values(v).forEach((x) => walk(x, depth + 1));
  };
  for (const s of gold) walk("tool" in s ? s.arguments : [s.rest, s.form, s.json], 0);
  return [...found];
}

function longDate(iso: string): string {
  const [y, m, d] = iso.split("-").map(Number);
  return `${MONTHS[m - 1]} ${d}, ${y}`;
}

/** The date written out with its year: 2026-05-15, May 15, 2026, 15 May 2026, May 15th 2026. */
export function mentionsDate(text: string, iso: string): boolean {
  if (text.includes(iso)) return true;
  const [y, m, d] = iso.split("-").map(Number);
  const month = `(${MONTHS[m - 1]}|${MONTHS[m - 1].slice(0, 3)}\\.?)`;
  const day = `0?${d}(st|nd|rd|th)?`;
  return new RegExp(`\\b${month}\\s+${day},?\\s+${y}\\b|\\b${day}\\s+(of\\s+)?${month},?\\s+${y}\\b`, "i").test(text);
}

const MONTH_WORD = `(?:${MONTHS.map((m) => `${m}|${m.slice(0, 3)}\\.?`).join("|")})`;
const DAY_WORD = "(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)";

/** Dates an agent cannot pin down: a day and month with no year, a numeric date that reads two ways, a day relative to today. */
export function dateProblems(text: string): string[] {
  const out: string[] = [];
  // "May" is a date only with its capital (the verb is "may"); every other month is matched in any case.
  const month = (w: string) => !/^may$/i.test(w) || w === "May";
  const seen = new Set<string>();
  const noYear = [
    new RegExp(`\\b(${MONTH_WORD})\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b(?!,?\\s*\\d{4})(?!\\s*[:\\d])`, "gi"),
    new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?(${MONTH_WORD})(?![a-z])(?!,?\\s+\\d{4})`, "gi"),
  ];
  for (const re of noYear)
    for (const m of text.matchAll(re)) {
      const word = /\d/.test(m[1]) ? m[2] : m[1];
      if (month(word) && !seen.has(m[0])) seen.add(m[0]), out.push(`the instruction writes the date "${m[0]}" without its year; an agent left to guess the year guesses wrong (write it with the year, e.g. "${m[0]}, 2026")`);
    }
  for (const m of text.matchAll(/\b(\d{1,2})[/.](\d{1,2})[/.](\d{2,4})\b/g))
    out.push(`the instruction writes the date "${m[0]}", which reads two ways (day or month first); write it as YYYY-MM-DD or with the month's name`);
  for (const m of text.matchAll(new RegExp(`\\b(today|tomorrow|yesterday|tonight|(?:next|last|this|coming)\\s+(?:${DAY_WORD}|week|weekend|month|year)|on\\s+${DAY_WORD})\\b`, "gi")))
    out.push(`the instruction says "${m[0]}", a date relative to a day the agent does not know; state the date with its year`);
  return out;
}

function instructionProblems(t: TierFacts): string[] {
  const out: string[] = [];
  const text = t.instruction;
  if (!text.trim()) return ["instruction.md is empty; it holds the user's request"];
  const named = t.tools.filter((tool) => new RegExp(`\\b${tool}\\b`).test(text));
  if (named.length) out.push(`the instruction names the tool${named.length === 1 ? "" : "s"} ${named.join(", ")}; write what the user wants, not which calls make it`);
  if (/^\s*(\d+[.)]|step\s+\d+\b)/im.test(text)) out.push("the instruction lists steps; write a request in the user's own words and let the agent find the steps");
  else if (/^\s*[-*•]\s+\S/m.test(text)) out.push("the instruction is a bulleted list; write a request in the user's own words, one or two paragraphs");
  else if (/(^|[.!?]\s+)first(ly)?\b[,\s]/im.test(text) && /(^|[.!?,;]\s*)(then|next|after that|finally)\b/im.test(text))
    out.push("the instruction spells out the steps (first ..., then ...); say what the user wants and let the agent find the steps");
  return out;
}
