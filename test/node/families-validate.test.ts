// `worlds family validate`: every rule with a fixture that breaks it. The fixture family (test/fixtures/families/
// mini_refunds) is copied and one thing changed per case; the file rules are read in-process, the world rules
// (gold passes on a fresh world, verify fails on an untouched one) through the real CLI and local server, and
// the bundled starter family is validated whole, its gold chains replayed on real worlds.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadFamily } from "../../src/cli/families/load";
import { staticProblems } from "../../src/cli/families/validate";
import type { FamilyProblem } from "../../src/core/families/rules";
import { killAllStarted, ROOT, runCli } from "./helpers/cli";
import { startLocalServer } from "../../src/cli/server/local";
import { AdminClient } from "../../src/cli/client";
import { worldReadTools } from "../../src/cli/families/null-agents";
import { ACCOUNT_READ_TOOLS } from "../../src/core/families/methods";

const FIXTURE = join(ROOT, "test", "fixtures", "families", "mini_refunds");
const dirs: string[] = [];

afterAll(() => {
  killAllStarted();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A fresh copy of a family (the fixture by default) inside its own parent folder; `change` breaks it. */
function copy(change: (dir: string) => void = () => undefined, from = FIXTURE): string {
  const parent = mkdtempSync(join(tmpdir(), "worlds-family-"));
  dirs.push(parent);
  const dir = join(parent, basename(from));
  cpSync(from, dir, { recursive: true });
  change(dir);
  return dir;
}

const edit = (dir: string, rel: string, from: string | RegExp, to: string) => {
  const p = join(dir, rel);
  const text = readFileSync(p, "utf8");
  const next = text.replace(from, to);
  if (next === text) throw new Error(`the fixture edit did not apply to ${rel}: ${String(from)}`);
  writeFileSync(p, next);
};
const T0 = "mini_refunds_t0/tier.yaml";
const T1 = "mini_refunds_t1/tier.yaml";
const T2 = "mini_refunds_t2/tier.yaml";

async function problems(dir: string): Promise<FamilyProblem[]> {
  return staticProblems(await loadFamily(dir));
}

function only(ps: FamilyProblem[], rule: string): FamilyProblem[] {
  const mine = ps.filter((p) => p.rule === rule);
  expect(mine.length, JSON.stringify(ps, null, 2)).toBeGreaterThan(0);
  return mine;
}

describe("family rules on the files", () => {
  it("the fixture family keeps every rule", async () => {
    expect(await problems(copy())).toEqual([]);
  });

  it("schema: an unknown field is an error naming the file, line and field", async () => {
    const [p] = only(await problems(copy((d) => edit(d, T1, "tier: 1\n", "tier: 1\ncolour: red\n"))), "schema");
    expect(p.tier).toBe("mini_refunds_t1");
    expect(p.message).toMatch(/mini_refunds_t1\/tier\.yaml:4:1: unknown field 'colour'/);
    const fam = only(await problems(copy((d) => edit(d, "family.yaml", "world: account", "world: account\nowner: me"))), "schema");
    expect(fam[0].message).toContain("unknown field 'owner'");
  });

  it("layout: a tier nested inside another, and a stray file", async () => {
    const nested = only(await problems(copy((d) => cpSync(join(d, "mini_refunds_t0"), join(d, "mini_refunds_t1", "mini_refunds_t0"), { recursive: true }))), "layout");
    expect(nested[0]).toMatchObject({ tier: "mini_refunds_t1" });
    expect(nested[0].message).toContain("a tier nested inside another");
    const stray = only(await problems(copy((d) => writeFileSync(join(d, "mini_refunds_t0", "gen_db.py"), "print(1)\n"))), "layout");
    expect(stray[0].message).toContain("gen_db.py: a tier folder holds tier.yaml, instruction.md only");
  });

  it("layout: a tier folder linked to itself is a problem line and exit 2 in validate and passk --family, not an ELOOP trace", async () => {
    const dir = copy((d) => {
      symlinkSync("mini_refunds_t9", join(d, "mini_refunds_t9"));
      symlinkSync("mini_refunds_t0", join(d, "mini_refunds_t0", "mini_refunds_t0"));
    });
    const loops = only(await problems(dir), "layout");
    expect(loops.map((p) => [p.tier, p.message])).toEqual([
      ["mini_refunds_t0", `${join(dir, "mini_refunds_t0", "mini_refunds_t0")} is a symbolic link that leads nowhere (it leads back to itself); a family holds real folders and files`],
      [null, `${join(dir, "mini_refunds_t9")} is a symbolic link that leads nowhere (it leads back to itself); a family holds real folders and files`],
    ]);
    const validate = await runCli(["family", "validate", dir, "--offline"]);
    expect(validate.code, validate.stderr).toBe(2);
    expect(validate.stdout).toContain("mini_refunds_t9 is a symbolic link that leads nowhere");
    expect(validate.stderr + validate.stdout).not.toContain("ELOOP");
    const passk = await runCli(["passk", "--family", dir, "--", "true"]);
    expect(passk.code, passk.stderr).toBe(2);
    expect(passk.stderr).toContain("mini_refunds_t9 is a symbolic link that leads nowhere");
    expect(passk.stderr).not.toContain("ELOOP");
  });

  it("names: a wrong parent and a gap in the tiers", async () => {
    const parent = only(await problems(copy((d) => edit(d, T1, "parent: mini_refunds_t0", "parent: mini_refunds_t5"))), "names");
    expect(parent[0].message).toBe("parent must be mini_refunds_t0 (got 'mini_refunds_t5')");
    const gap = await problems(
      copy((d) => {
        renameSync(join(d, "mini_refunds_t2"), join(d, "mini_refunds_t3"));
        edit(d, "mini_refunds_t3/tier.yaml", /mini_refunds_t2/g, "mini_refunds_t3");
        edit(d, "mini_refunds_t3/tier.yaml", "tier: 2", "tier: 3");
      }),
    );
    expect(only(gap, "names").map((p) => p.message)).toContain("tiers must run 0, 1, 2... without gaps: expected tier 2 here, found tier 3");
  });

  it("root_name: a suffix variant of another family collides", async () => {
    const dir = copy();
    const twin = join(dir, "..", "mini_refunds_v2");
    cpSync(dir, twin, { recursive: true });
    edit(twin, "family.yaml", "root: mini_refunds", "root: mini_refunds_v2");
    const [p] = only(await problems(dir), "root_name");
    expect(p.message).toBe("the root 'mini_refunds' collides with the existing family 'mini_refunds_v2' (the same root or a variant of it); choose a different root word");
  });

  it("root_name: a plural or singular near-variant of a bundled family collides", async () => {
    for (const [root, other] of [["parcel_return", "parcel_returns"], ["acme_refunds_desk", "acme_refund_desk"]]) {
      const dir = copy((d) => edit(d, "family.yaml", "root: mini_refunds", `root: ${root}`));
      const [p] = only(await problems(dir), "root_name");
      expect(p.message).toBe(`the root '${root}' collides with the existing family '${other}' (the same root or a variant of it); choose a different root word`);
    }
  });

  it("superset: a tool of tier 0 that tier 1 no longer involves", async () => {
    const [p] = only(await problems(copy((d) => edit(d, T0, "tools: [find_customers, list_charges, refund_charge]", "tools: [find_customers, list_charges, refund_charge, void_invoice]"))), "superset");
    expect(p).toMatchObject({ tier: "mini_refunds_t1", message: "tier 1 must involve every tool of tier 0; missing void_invoice (list them under tools:)" });
  });

  it("longer_gold: a gold chain no longer than the parent's", async () => {
    const [p] = only(await problems(copy((d) => edit(d, T1, /  - tool: reply_to_ticket\n    arguments: \{[^\n]*\}\n/, ""))), "longer_gold");
    expect(p.message).toBe("tier 1's gold chain must be strictly longer than tier 0's (3 calls, parent 3)");
  });

  it("methods: repeated in consecutive tiers, and too few across the family", async () => {
    const ps = only(await problems(copy((d) => edit(d, T2, "difficulty_methods: [larger_db, ambiguity_resolution, cross_entity_coupling]", "difficulty_methods: [multi_step_reasoning]"))), "methods");
    expect(ps.map((p) => p.message)).toEqual([
      "multi_step_reasoning repeats tier 1's method; consecutive tiers must use different methods",
      "the family uses 2 distinct difficulty methods (multi_step_reasoning, stricter_thresholds); it needs at least 5",
    ]);
  });

  it("methods: a tier one duplicated read longer, claiming five methods it does not do", async () => {
    const dir = copy((d) => {
      edit(d, T1, /difficulty_methods: .*\n/, "difficulty_methods: [cross_entity_coupling, larger_db, conditional_rules, noisy_instructions, schema_extension]\n");
      edit(d, T1, /  - tool: reply_to_ticket\n    arguments: \{[^\n]*\}\n/, "  - tool: list_charges\n    arguments: {customer: cus_AcmeJuniper}\n");
    });
    const ps = await problems(dir);
    expect(only(ps, "longer_gold").map((p) => p.message)).toEqual(["gold[3] repeats gold[1] exactly (list_charges, the same arguments): a repeated call makes a chain longer, not harder"]);
    expect(only(ps, "methods").filter((p) => p.tier === "mini_refunds_t1").map((p) => p.message)).toEqual([
      "tier 1 claims cross_entity_coupling, but its gold chain changes 1 kind of object (refund_charge), not more than tier 0's 1: coupling means one request changes two things that must agree",
      "tier 1 claims larger_db, but its world holds 147 objects, not more than tier 0's 147",
      "tier 1 claims conditional_rules, but its instruction states no condition tier 0's does not (an if, unless, otherwise or whichever the agent must decide on)",
      "tier 1 claims noisy_instructions, but its instruction has 0 typos; noise means at least two (a misspelt word, a contraction without its apostrophe) more than tier 0's 0",
      "tier 1 claims schema_extension, but it holds no kind of object tier 0 lacks (it holds " + "customers, products, prices, subscriptions, invoices, charges, payment_intents, refunds, credit_notes, balance_transactions, coupons, promotion_codes, tax_ids, tickets, users, organizations, groups, macros, ticket_fields, disputes)",
    ]);
  });

  it("methods: each method holds when its tier does it (typos, a new limit, a condition, a lookalike, more tools)", async () => {
    const dir = copy((d) => {
      edit(d, T2, /difficulty_methods: .*\n/, "difficulty_methods: [larger_db, ambiguity_resolution, cross_entity_coupling, conditional_rules, noisy_instructions, tool_proliferation]\n");
      edit(d, T2, "tools: [find_customers, list_charges, refund_charge, credit_customer_balance, reply_to_ticket]", "tools: [find_customers, list_charges, refund_charge, credit_customer_balance, reply_to_ticket, void_invoice]");
      edit(d, "mini_refunds_t2/instruction.md", "That hasn't happened yet.", "That hasnt happend yet, and if it already did, dont do it twice.");
    });
    expect((await problems(dir)).filter((p) => p.rule === "methods")).toEqual([]);
  });

  it("superset: a tier whose world is smaller than its parent's", async () => {
    // Tier 1 grows to a crowd of 400 (its hash read from the generator rule's message), above tier 2's 150.
    const dir = copy((d) => edit(d, T1, "seed: acme-small", 'seed: {generator: acme-crowd, base: acme-small, prng_seed: 5, customers: 400, sha256: "' + "0".repeat(64) + '"}'));
    const hash = /sha256 is ([0-9a-f]{64})/.exec(only(await problems(dir), "generator")[0].message)![1];
    edit(dir, T1, "0".repeat(64), hash);
    const [p] = only(await problems(dir), "superset");
    expect(p.message).toMatch(/^tier 2's world holds \d+ objects, fewer than tier 1's \d+: a tier keeps everything of the one before$/);
  });

  it("tier0: at most three calls and two writes on a small world, and no method", async () => {
    const dir = copy((d) => {
      edit(d, T0, "difficulty_methods: []", "difficulty_methods: [larger_db]");
      edit(d, T0, "seed: acme-small", 'seed: {generator: acme-crowd, base: acme-small, prng_seed: 5, customers: 150, shared_emails: 10, sha256: "c4a48fe1e74740bb353936a30462a036b9d1f34f49c8e258777a961fdb37cc52"}');
      edit(d, T0, "    arguments: {charge: ch_AcmeNorthwindDup, reason: duplicate}\n", "    arguments: {charge: ch_AcmeNorthwindDup, reason: duplicate}\n  - tool: list_invoices\n    arguments: {customer: cus_AcmeNorthwind}\n  - tool: credit_customer_balance\n    arguments: {customer: cus_AcmeNorthwind, amount: 100}\n");
    });
    const ps = only(await problems(dir), "tier0");
    expect(ps.map((p) => p.message)).toEqual([
      "tier 0 is the seed and names no difficulty method (it names larger_db)",
      "tier 0's gold chain has 5 calls; the seed is solved in 1 to 3",
      expect.stringMatching(/^tier 0's world holds \d+ objects; the seed's world is small \(at most 199, below a generated tier's 200\)$/),
    ]);
    const writes = only(await problems(copy((d) => edit(d, T0, "  - tool: find_customers\n    arguments: {email: billing.northwind@example.com}\n", "  - tool: credit_customer_balance\n    arguments: {customer: cus_AcmeNorthwind, amount: 100}\n  - tool: void_invoice\n    arguments: {invoice: in_AcmeNorthwind0803}\n"))), "tier0");
    expect(writes.map((p) => p.message)).toContain("tier 0's gold chain makes 3 writes; the seed makes at most 2");
  });

  it("dates: a date the gold chain passes must be in the instruction with its year", async () => {
    const [p] = only(
      await problems(
        copy((d) => {
          edit(d, T1, "body: \"We have refunded", 'body: "On 2026-08-20 we refunded');
          edit(d, "mini_refunds_t1/instruction.md", "second half of August 2026", "second half of August");
        }),
      ),
      "dates",
    );
    expect(p.message).toBe("the gold chain passes the date 2026-08-20, but the instruction does not state it with its year (write 2026-08-20 or August 20, 2026)");
  });

  it("dates: a day without its year, a numeric date that reads two ways, a day relative to today", async () => {
    const ps = only(await problems(copy((d) => edit(d, "mini_refunds_t0/instruction.md", "in September 2026:", "on September 3 and on 10/01/2026, or was it next Tuesday:"))), "dates");
    expect(ps.map((p) => p.message)).toEqual([
      'the instruction writes the date "September 3" without its year; an agent left to guess the year guesses wrong (write it with the year, e.g. "September 3, 2026")',
      'the instruction writes the date "10/01/2026", which reads two ways (day or month first); write it as YYYY-MM-DD or with the month\'s name',
      'the instruction says "next Tuesday", a date relative to a day the agent does not know; state the date with its year',
    ]);
  });

  it("instruction: first-then steps and bullets are steps too", async () => {
    const firstThen = only(await problems(copy((d) => writeFileSync(join(d, "mini_refunds_t0", "instruction.md"), "First, look up our account by this email. Then refund the second of the two September 2026 charges.\n"))), "instruction");
    expect(firstThen[0].message).toBe("the instruction spells out the steps (first ..., then ...); say what the user wants and let the agent find the steps");
    const bullets = only(await problems(copy((d) => writeFileSync(join(d, "mini_refunds_t0", "instruction.md"), "Please:\n- find our account\n- refund the extra September 2026 charge\n"))), "instruction");
    expect(bullets[0].message).toBe("the instruction is a bulleted list; write a request in the user's own words, one or two paragraphs");
  });

  it("instruction: no tool names and no numbered steps", async () => {
    const ps = only(await problems(copy((d) => writeFileSync(join(d, "mini_refunds_t0", "instruction.md"), "1. Call find_customers for my email.\n2. Then refund_charge the duplicate.\n"))), "instruction");
    expect(ps.map((p) => p.message)).toEqual([
      "the instruction names the tools find_customers, refund_charge; write what the user wants, not which calls make it",
      "the instruction lists steps; write a request in the user's own words and let the agent find the steps",
    ]);
  });

  it("generator: a changed generator output, a tier 2 seed that is not generated, a seed too small", async () => {
    const changed = only(await problems(copy((d) => edit(d, T2, "prng_seed: 5", "prng_seed: 6"))), "generator");
    expect(changed[0].message).toMatch(/^the generated seed's sha256 is [0-9a-f]{64}, but the tier records c4a48fe1/);
    const plain = only(await problems(copy((d) => edit(d, T2, /seed: \{[^\n]*\}/, "seed: acme-small"))), "generator");
    expect(plain.map((p) => p.message)).toContain("tier 2's seed must come from a generator (seed: {generator: acme-crowd, base, prng_seed, customers, sha256}), with hundreds to thousands of entities");
    expect(plain.map((p) => p.message)).toContain("tier 2's seed holds 147 objects; from tier 2 a seed holds hundreds to thousands");
    const unknown = only(await problems(copy((d) => edit(d, T2, "generator: acme-crowd", "generator: gen-db-py"))), "generator");
    expect(unknown[0].message).toBe("no generator 'gen-db-py' (generators: acme-crowd, tool-ledger)");
  });

  it("verify_grammar: a check that does not parse names its column", async () => {
    const [p] = only(await problems(copy((d) => edit(d, T0, "  - deleted.customers==0", "  - deleted.customers=0"))), "verify_grammar");
    expect(p.message).toBe("verify[2] 'deleted.customers=0': 'deleted.customers=0': compare with ==, not = (column 1)");
  });

  it("pass_rates: hand-written rates, a date that is no date, a run that cannot be found, a changed results file, a rate its run did not measure", async () => {
    const ACME = join(ROOT, "packs", "families", "acme_refund_desk");
    const hand = ["0.05", "1", "1", "1", "1"];
    const handWritten = await problems(copy((d) => hand.forEach((v, n) => edit(d, `acme_refund_desk_t${n}/tier.yaml`, /pass_rates:\n(  - \{[^\n]*\}\n)+/, `pass_rates: [{ solver: model, model: "openai:gpt-4.1-mini", k: 20, value: ${v}, date: 2026-12-01 }]\n`)), ACME));
    expect(only(handWritten, "pass_rates").map((p) => [p.tier, p.message])).toEqual(
      hand.map((v, n) => [`acme_refund_desk_t${n}`, `the pass rate of openai:gpt-4.1-mini (k 20, ${Number(v) * 100}%) names no gate run (run and results_sha256): a pass rate comes only from a gate run, which family gate records; a hand-written rate is refused`]),
    );
    const T = "acme_refund_desk_t1/tier.yaml";
    const noDate = only(await problems(copy((d) => edit(d, T, "date: 2026-12-04", "date: 2099-13-45"), ACME)), "schema");
    expect(noDate[0].message).toMatch(/acme_refund_desk_t1\/tier\.yaml:\d+:\d+: pass_rates\[0\]\.date: is not a calendar date/);
    const lost = only(await problems(copy((d) => rmSync(join(d, "runs"), { recursive: true }), ACME)), "pass_rates");
    expect(lost).toHaveLength(5);
    expect(lost[0].message).toMatch(/^the pass rate of openai:acme-solver \(k 20, 90%\) names the run gate-2026-12-04-[0-9a-f]{12}, but runs\/gate-2026-12-04-[0-9a-f]{12}\.json is not in the family: a rate comes only from a gate run/);
    const changed = only(await problems(copy((d) => { const f = join(d, "runs", readdirSync(join(d, "runs"))[0]); writeFileSync(f, readFileSync(f, "utf8").replace('"passed": 18', '"passed": 19')); }, ACME)), "pass_rates");
    expect(changed[0].message).toMatch(/is not the file its run wrote \(sha256 [0-9a-f]{12}…, recorded [0-9a-f]{12}…\)$/);
    const other = only(await problems(copy((d) => edit(d, T, "value: 0.75", "value: 0.7"), ACME)), "pass_rates");
    expect(other.map((p) => p.message)).toEqual([expect.stringMatching(/^the pass rate of openai:acme-solver \(k 20, 70%\) is not what the run gate-2026-12-04-[0-9a-f]{12} measured: 15 of 20 \(75%\)$/)]);
    const short = only(await problems(copy((d) => edit(d, T, "k: 20", "k: 10"), ACME)), "pass_rates");
    expect(short.map((p) => p.message)).toContain("the pass rate of openai:acme-solver was measured over 10 episodes; a measurement needs 20 (or forced: true, from gate --force)");
  });

  it("validate --record-hashes writes the regenerated seed's sha256 into tier.yaml; list shows bundled and local families and their calibration", async () => {
    const dir = copy((d) => edit(d, T2, "prng_seed: 5", "prng_seed: 6"));
    const res = await runCli(["family", "validate", dir, "--offline", "--record-hashes"]);
    expect(res.code, res.stdout + res.stderr).toBe(0);
    expect(res.stdout).toContain(`recorded the generated seed's sha256 in ${join(dir, T2)}`);
    expect(readFileSync(join(dir, T2), "utf8")).toMatch(/prng_seed: 6, customers: 150, shared_emails: 10, sha256: "?[0-9a-f]{64}"?\}/);
    expect(res.stdout).toContain("uncalibrated");
    const listed = await runCli(["family", "list", "--dir", join(dir, "..")]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain("acme_refund_desk  account  5 tiers  bundled\n  acme_refund_desk_t0  90% over 20 (model openai:acme-solver, 2026-12-04)");
    expect(listed.stdout).toContain("parcel_returns  tools  5 tiers  bundled");
    expect(listed.stdout).toContain(`mini_refunds  account  3 tiers  ${dir}\n  mini_refunds_t0  uncalibrated`);
  });
});

describe("a tools-world family (packs/families/parcel_returns, on its tools.openai.json)", () => {
  const TOOLS_FAMILY = join(ROOT, "packs", "families", "parcel_returns");
  const toolsCopy = (change: (dir: string) => void) => copy(change, TOOLS_FAMILY);

  it("grows tier by tier: more tools offered, longer gold chains, generated orders from tier 2, five methods", async () => {
    const fam = await loadFamily(TOOLS_FAMILY);
    expect(staticProblems(fam)).toEqual([]);
    expect(fam.tiers.map((t) => t.doc.gold.length)).toEqual([2, 3, 4, 5, 6]);
    const offered = fam.tiers.map((t) => ((t.worldSeed!.tools as { definitions: { name: string }[] }).definitions.length));
    expect(offered).toEqual([2, 4, 6, 8, 11]);
    expect(fam.tiers.map((t) => t.entities)).toEqual([6, 9, 914, 2417, 6023]);
    expect(new Set(fam.tiers.flatMap((t) => t.doc.difficulty_methods)).size).toBeGreaterThanOrEqual(5);
    // The agent reads the request and the offered tools, as `worlds tools run` hands them over.
    const task = JSON.parse(fam.tiers[0].taskJson);
    expect(task).toMatchObject({ id: "parcel_returns_t0", request: expect.stringContaining("QH4821") });
    expect(task.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual(["get_order", "refund_order"]);
  });

  it("refuses a tier offering a tool the file lacks, a gold call to a tool not offered, an account generator, and a missing tool file", async () => {
    const lacks = only(await problems(toolsCopy((d) => edit(d, "parcel_returns_t0/seed.json", '"tools": ["get_order", "refund_order"]', '"tools": ["get_order", "refund_order", "teleport_parcel"]'))), "schema");
    expect(lacks[0].message).toContain("seed.json offers teleport_parcel, which the tool file tools.openai.json does not hold");
    const unoffered = only(await problems(toolsCopy((d) => edit(d, "parcel_returns_t0/seed.json", '"tools": ["get_order", "refund_order"]', '"tools": ["refund_order"]'))), "schema");
    expect(unoffered[0].message).toContain("the tier calls or plans get_order but its seed.json does not offer it");
    const account = only(await problems(toolsCopy((d) => edit(d, "parcel_returns_t2/tier.yaml", "generator: tool-ledger", "generator: acme-crowd"))), "generator");
    expect(account[0].message).toContain("the generator acme-crowd makes account worlds; this family's tiers run on tools worlds");
    const changed = only(await problems(toolsCopy((d) => edit(d, "parcel_returns_t3/tier.yaml", "prng_seed: 11", "prng_seed: 12"))), "generator");
    expect(changed[0].message).toMatch(/^the generated seed's sha256 is [0-9a-f]{64}, but the tier records 518f45d1/);
    const missing = only(await problems(toolsCopy((d) => rmSync(join(d, "tools.openai.json")))), "schema");
    expect(missing[0].message).toMatch(/tools\.openai\.json is missing \(family\.yaml's tools\.file names it\)/);
  });

  it("validates whole on real tools worlds: every gold chain moves its records, an untouched world fails verify", async () => {
    const res = await runCli(["family", "validate", "parcel_returns"], { timeoutMs: 400_000 });
    expect(res.code, res.stdout + res.stderr).toBe(0);
    for (const n of [0, 1, 2, 3, 4]) expect(res.stdout).toMatch(new RegExp(`ok   parcel_returns_t${n}: ${n + 2} gold calls`));
    expect(res.stdout).toContain("every rule holds");
    for (const n of [2, 3, 4]) expect(res.stdout).toMatch(new RegExp(`ok   parcel_returns_t${n}: .*; null agents fail verify \\(reply-only, read-only, wrong-object\\)`));
    const broken = toolsCopy((d) => {
      edit(d, "parcel_returns_t1/tier.yaml", "arguments: {order_id: QH4821, channel: sms}", "arguments: {order_id: QH4821, channel: email}");
      // No side effect and a reply: an agent that calls nothing passes.
      edit(d, "parcel_returns_t0/tier.yaml", /verify:\n[\s\S]*$/, "verify:\n  - count(created.records)==0\n  - replied\n");
    });
    const bad = await runCli(["family", "validate", broken], { timeoutMs: 400_000 });
    expect(bad.code, bad.stdout + bad.stderr).toBe(2);
    expect(bad.stdout).toContain("parcel_returns_t0 [null_agents]: the reply-only agent (no call, then a plausible reply) passes verify: count(created.records)==0; replied all held for it");
    expect(bad.stdout).toContain('parcel_returns_t1 [gold_passes]: after the gold chain, verify\'s records.rec_notice.status==done fails: records.rec_notice.status is "pending"');
    expect(bad.leftovers).toEqual([]);
  }, 900_000);
});

describe("verify on a tools world by state predicates over records", () => {
  it("any valid solution passes: the refund in two halves adds up to the order's half, while the exact-argument record stays pending", async () => {
    const dir = copy(
      (d) =>
        edit(
          d,
          "parcel_returns_t0/tier.yaml",
          /verify:\n[\s\S]*$/,
          "verify:\n  - sum(records[tool=refund_order, status!=pending, arguments.order_id=QH4821].arguments.amount)==24.5\n  - count(records[tool!=refund_order, status=side_effect])==0\n  - replied\n",
        ),
      join(ROOT, "packs", "families", "parcel_returns"),
    );
    const agent = join(dir, "..", "halves.mjs");
    writeFileSync(
      agent,
      `const env = process.env;
const call = async (name, args) => { const r = await fetch(env.WORLDS_TOOLS_URL + "/call", { method: "POST", headers: { authorization: "Bearer " + env.WORLDS_TOOLS_KEY, "content-type": "application/json" }, body: JSON.stringify({ name, arguments: args }) }); if (!r.ok) throw new Error(name + ": " + r.status); };
await call("get_order", { order_id: "QH4821" });
for (const amount of [12.25, 12.25]) await call("refund_order", { order_id: "QH4821", amount, reason: "damaged" });
console.log("Refunded $24.50 in two parts.");
`,
    );
    const validated = await runCli(["family", "validate", join(dir, "parcel_returns_t0")], { timeoutMs: 240_000 });
    expect(validated.stdout).toMatch(/ok   parcel_returns_t0: .*; null agents fail verify \(reply-only, read-only\)/);
    const res = await runCli(["passk", "--family", join(dir, "parcel_returns_t0"), "--server", "auto", "--runs", "1", "--", "node", agent], { timeoutMs: 240_000 });
    expect(res.code, res.stdout + res.stderr).toBe(0);
    expect(res.stdout).toMatch(/t0 █+ +100%/);
    expect(res.leftovers).toEqual([]);
  }, 400_000);
});

describe("family rules on real worlds", () => {
  it("gold_passes and untouched_fails: a gold chain the world refuses, and verify an untouched world already meets", async () => {
    const dir = copy((d) => {
      edit(d, T0, "arguments: {charge: ch_AcmeNorthwindDup, reason: duplicate}", "arguments: {charge: ch_AcmeNorthwindDup, amount: 999999, reason: duplicate}");
      edit(d, T1, /verify:\n[\s\S]*$/, "verify:\n  - deleted.customers==0\n  - created.subscriptions==0\n");
      edit(d, T2, "  - sum(created.refunds[charge=ch_AcmeBluebird0912].amount)==1000", "  - sum(created.refunds[charge=ch_AcmeBluebird0912].amount)==1200");
    });
    const res = await runCli(["family", "validate", dir], { timeoutMs: 240_000 });
    expect(res.code, res.stdout + res.stderr).toBe(2);
    expect(res.stdout).toContain("fail mini_refunds_t0");
    expect(res.stdout).toMatch(/mini_refunds_t0 \[gold_passes\]: the gold chain does not run on a fresh world: gold\[2\] refund_charge was refused \(4\d\d\)/);
    expect(res.stdout).toContain("mini_refunds_t1 [untouched_fails]: verify passes on the untouched world, so an agent that does nothing would pass");
    expect(res.stdout).toContain("mini_refunds_t2 [gold_passes]: after the gold chain, verify's sum(created.refunds[charge==ch_AcmeBluebird0912].amount)==1200 fails: the sum over 1 object is 1000");
    expect(res.stdout).toContain("3 problems");
    expect(res.leftovers).toEqual([]);
  }, 300_000);

  it("null_agents: a reply-only, a read-only and a wrong-object agent that verify lets through are named with the checks", async () => {
    const dir = copy((d) => {
      // Tier 0 checks the amount but not the charge: the gold's refund on another Northwind charge passes.
      edit(d, T0, /verify:\n[\s\S]*$/, "verify:\n  - sum(created.refunds.amount)==9900\n  - deleted.customers==0\n");
      // Tier 1 checks only invariants and a reply: an agent that reads and answers passes.
      edit(d, T1, /verify:\n[\s\S]*$/, "verify:\n  - deleted.customers==0\n  - created.subscriptions==0\n  - replied\n");
    });
    const res = await runCli(["family", "validate", dir], { timeoutMs: 240_000 });
    expect(res.code, res.stdout + res.stderr).toBe(2);
    expect(res.stdout).toContain(
      "mini_refunds_t0 [null_agents]: the wrong-object agent (the gold chain's writes on lookalikes: ch_AcmeNorthwind0803 for ch_AcmeNorthwindDup) passes verify: sum(created.refunds.amount)==9900; deleted.customers==0 all held for it; add a check that only the task's change makes true",
    );
    expect(res.stdout).toContain("mini_refunds_t1 [null_agents]: the reply-only agent (no call, then a plausible reply) passes verify: deleted.customers==0; created.subscriptions==0; replied all held for it");
    expect(res.stdout).toContain("mini_refunds_t1 [null_agents]: the read-only agent (every read the tier offers, then a plausible reply) passes verify");
    expect(res.stdout).toMatch(/ok   mini_refunds_t2: .*; null agents fail verify \(reply-only, read-only, wrong-object\)/);
    expect(res.stdout).toContain("4 problems");
    expect(res.leftovers).toEqual([]);
  }, 300_000);

  it("the account read tools the rules count as reads are the ones a live account world marks read-only", async () => {
    const server = await startLocalServer();
    try {
      const client = new AdminClient(server.url, server.token);
      const world = await client.createWorld("acme-small");
      expect((await worldReadTools(world, server.url)).sort()).toEqual([...ACCOUNT_READ_TOOLS].sort());
      await client.deleteWorld(world.id);
    } finally {
      await server.stop();
    }
  }, 120_000);

  it("the bundled starter family keeps every rule, its gold chains replayed on fresh worlds", async () => {
    const res = await runCli(["family", "validate", "acme_refund_desk"], { timeoutMs: 400_000 });
    expect(res.code, res.stdout + res.stderr).toBe(0);
    expect(res.stdout).toContain("family acme_refund_desk:");
    expect(res.stdout).toContain("bundled (packs/families/acme_refund_desk)");
    for (const n of [0, 1, 2, 3, 4]) expect(res.stdout).toMatch(new RegExp(`ok   acme_refund_desk_t${n}: ${n + 3} gold calls.*; null agents fail verify \\(reply-only, read-only, wrong-object\\)`));
    expect(res.stdout).toContain("every rule holds");
  }, 420_000);

  it("names a family that does not exist, with the bundled ones", async () => {
    const res = await runCli(["family", "validate", "no_such_family", "--offline"]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("no family 'no_such_family': not a folder holding family.yaml, and not a bundled family (acme_refund_desk, parcel_returns)");
  });
});
