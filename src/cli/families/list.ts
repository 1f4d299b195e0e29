// `worlds family list`: the families in sight, the bundled ones and those in a folder, each tier with its newest
// recorded pass rate or "uncalibrated". Only the YAML documents are read (no seed is generated), so listing is
// quick; whether a family keeps its rules is validate's question.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { parse } from "yaml";
import { FAMILY_FILE, TIER_FILE, familyDocument, tierDocument } from "../../core/families/schema";
import { pct } from "../../core/families/vocabulary";
import { bundledFamiliesDir } from "./load";

export interface FamilyRow {
  root: string;
  world: string;
  where: string;
  tiers: { name: string; note: string }[];
  /** Set when a document does not parse. */
  problem: string | null;
}

const MAX_FILE = 1024 * 1024;

function readDoc(path: string): unknown {
  if (!existsSync(path) || statSync(path).size > MAX_FILE) return null;
  try {
    return parse(readFileSync(path, "utf8"), { maxAliasCount: 100 });
  } catch {
    return null;
  }
}

function familyRow(dir: string, where: string): FamilyRow | null {
  const fam = familyDocument.safeParse(readDoc(join(dir, FAMILY_FILE)));
  if (!fam.success) return { root: dir, world: "?", where, tiers: [], problem: `${FAMILY_FILE} does not parse` };
  const root = fam.data.root;
  const folders = readdirSync(dir).filter((n) => new RegExp(`^${root}_t\\d+$`).test(n) && statSync(join(dir, n)).isDirectory());
  folders.sort((a, b) => Number(a.slice(a.lastIndexOf("_t") + 2)) - Number(b.slice(b.lastIndexOf("_t") + 2)));
  let problem: string | null = null;
  const tiers = folders.map((name) => {
    const t = tierDocument.safeParse(readDoc(join(dir, name, TIER_FILE)));
    if (!t.success) return (problem = `${name}/${TIER_FILE} does not parse`), { name, note: "?" };
    const e = [...t.data.pass_rates].sort((a, b) => a.date.localeCompare(b.date)).at(-1);
    return { name, note: e ? `${pct(e.value)} over ${e.k} (${e.solver} ${e.model}, ${e.date}${e.forced ? ", forced" : ""})` : "uncalibrated" };
  });
  return { root, world: fam.data.world, where, tiers, problem };
}

/** Bundled families first, then each family folder in `dir` (or `dir` itself when it is one). */
export function listFamilies(dir: string): FamilyRow[] {
  const rows: FamilyRow[] = [];
  const seen = new Set<string>();
  const add = (p: string, where: string) => {
    const key = resolve(p);
    if (seen.has(key) || !existsSync(join(p, FAMILY_FILE))) return;
    seen.add(key);
    const row = familyRow(p, where);
    if (row) rows.push(row);
  };
  const bundled = bundledFamiliesDir();
  if (existsSync(bundled)) for (const n of readdirSync(bundled).sort()) add(join(bundled, n), "bundled");
  add(dir, dir);
  if (existsSync(dir) && statSync(dir).isDirectory()) for (const n of readdirSync(dir).sort()) if (statSync(join(dir, n)).isDirectory()) add(join(dir, n), join(dir, n));
  return rows;
}
