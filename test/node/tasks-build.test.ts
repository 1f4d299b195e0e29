// tasks build: the compiled seed, rubric and build record from the good fixtures, byte-identical across runs,
// pinned by a golden the Worker test compares its endpoint against; --rewrite and --keep-seed-tickets.
import { cpSync, chmodSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runTasks } from "../../src/cli/commands/tasks";
import type { CliIo } from "../../src/cli/tasks/io";
import { rubricDocument } from "../../src/core/rubric/schema";
import { parseSeed } from "../../src/core/world/seed/parse";
import { canonicalJson, sha256Hex } from "../../src/core/util/canonical";
import { FIXTURES } from "./tasks-fixtures";

const GOLDEN = JSON.parse(readFileSync(join(FIXTURES, "tasks-good", "golden.json"), "utf8")) as Record<string, { file: string; base_seed: string; seed: string; rubric: string; build_sha256: string }>;

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function workspace(): string {
  const root = mkdtempSync(join(tmpdir(), "worlds-tasks-build-"));
  dirs.push(root);
  cpSync(join(FIXTURES, "tasks-good"), join(root, "tasks-good"), { recursive: true });
  cpSync(join(FIXTURES, "tasks-seed"), join(root, "tasks-seed"), { recursive: true });
  chmodSync(join(root, "tasks-seed", "tasks-fixture.identities.json"), 0o600);
  return join(root, "tasks-good");
}

async function run(cwd: string, argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const io: CliIo = { cwd, env: {}, out: (t) => void (out += t), err: (t) => void (err += t) };
  const code = await runTasks(argv, io);
  return { code, out, err };
}

const read = (dir: string, f: string) => readFileSync(join(dir, f), "utf8");

describe("tasks build", () => {
  it("writes byte-identical seed, rubric and build record on every run, matching the golden hashes", async () => {
    const a = workspace();
    const b = workspace();
    for (const dir of [a, b]) {
      const r = await run(dir, ["build", "tasks.yaml", "--out-seed", "out/seed.json", "--out-rubric", "out/rubric.json"]);
      expect(r.err).toBe("");
      expect(r.code).toBe(0);
    }
    for (const f of ["out/seed.json", "out/rubric.json", "tasks.build.json"]) expect(read(a, f)).toBe(read(b, f));
    const build = JSON.parse(read(a, "tasks.build.json")) as { file: { sha256: string }; base_seed: { hash: string }; seed: { hash: string }; rubric: { hash: string } };
    const seed = JSON.parse(read(a, "out/seed.json")) as unknown;
    const rubric = JSON.parse(read(a, "out/rubric.json")) as unknown;
    expect(await sha256Hex(canonicalJson(rubric))).toBe(build.rubric.hash);
    expect(await sha256Hex(readFileSync(join(a, "tasks.yaml")))).toBe(build.file.sha256);
    expect({
      file: build.file.sha256,
      base_seed: build.base_seed.hash,
      seed: build.seed.hash,
      rubric: build.rubric.hash,
      build_sha256: await sha256Hex(read(a, "tasks.build.json")),
    }).toEqual(GOLDEN["tasks.yaml"]);
    expect(parseSeed(seed).ok).toBe(true);
    expect(rubricDocument.safeParse(rubric).success).toBe(true);
  });

  it("places the tickets oldest first, thirty minutes apart, with the base seed's tickets dropped and requesters set", async () => {
    const dir = workspace();
    await run(dir, ["build", "tasks.yaml", "--out-seed", "seed.json", "--out-rubric", "rubric.json"]);
    const seed = JSON.parse(read(dir, "seed.json")) as { name: string; data: { tickets: Array<{ id: number; created_offset: number; requester: { email: string; name: string }; external_id?: string; status: string; description: string }> } };
    expect(seed.name).toBe("tasks-fixture-tasks");
    const t = seed.data.tickets;
    expect(t.map((x) => x.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(t.map((x) => x.created_offset)).toEqual(t.map((_, i) => -1800 * (12 - i)));
    expect(t.every((x) => x.status === "open")).toBe(true);
    expect(t[0].external_id).toBe("ZD-1041");
    expect(t[11].external_id).toBeUndefined();
    expect(t[0].description.endsWith("\n")).toBe(false);
    expect(t[10].requester).toEqual({ email: "billing@northwind.example.com", name: "Dana from Northwind" });
    expect(t[1].requester).toEqual({ email: "ops@silverline.example.com", name: "Silverline Ops" });
  });

  it("keeps the base seed's tickets ahead of the tasks with --keep-seed-tickets", async () => {
    const dir = workspace();
    const r = await run(dir, ["build", "tasks.yaml", "--out-seed", "seed.json", "--out-rubric", "rubric.json", "--keep-seed-tickets"]);
    expect(r.code).toBe(0);
    const seed = JSON.parse(read(dir, "seed.json")) as { data: { tickets: Array<{ id: number; subject: string }> } };
    expect(seed.data.tickets[0].subject).toBe("Old seed ticket");
    expect(seed.data.tickets.map((x) => x.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    const rubric = JSON.parse(read(dir, "rubric.json")) as { tickets: Array<{ id: number; label: string }> };
    expect(rubric.tickets[0]).toMatchObject({ id: 2, label: "ZD-1041" });
  });

  it("writes the rubric's keys, guards and defaults from each line", async () => {
    const dir = workspace();
    await run(dir, ["build", "tasks.yaml", "--out-seed", "seed.json", "--out-rubric", "rubric.json"]);
    const rubric = rubricDocument.parse(JSON.parse(read(dir, "rubric.json")));
    const byLabel = Object.fromEntries(rubric.tickets.map((t) => [t.label, t]));
    expect(rubric.invariants).toEqual(["deleted.customers==0", "created.subscriptions==0"]);
    expect(rubric.plan_names).toEqual(["Starter", "Growth", "Scale"]);
    expect(rubric.budget).toEqual({ credits_total_max: 15000, credits_count_max: 3 });
    expect(byLabel["ZD-1041"]).toMatchObject({ customer: "cus_Northwind", decoys: ["cus_Subsidiary"], claim: "refund", expect: { amount: 24300, target: null, target_any: ["ch_NwSep1", "ch_NwSep2"] }, terminal_status: ["solved", "closed"], trap_class: "collision" });
    expect(byLabel["ZD-1043"]).toMatchObject({ customer: null, candidates: ["cus_BeaconEast", "cus_BeaconWest"], claim: "escalate", terminal_status: ["open", "hold"] });
    expect(byLabel["ZD-1044"]).toMatchObject({ customer: "cus_BeaconWest", decoys: ["cus_BeaconEast"], expect: { action: "void", target: "in_BeWestOpen" } });
    expect(byLabel["ZD-1045"].expect).toMatchObject({ action: "plan_change", target: "sub_SlGrowth", price: "price_ScaleMonthly" });
    expect(byLabel["ZD-1046"].expect).toMatchObject({ action: "refund", amount: 2430, target: "ch_SlSep" });
    expect(byLabel["ZD-1047"].expect).toMatchObject({ action: "credit", amount: 1000, target: "cus_Northwind" });
    expect(byLabel["ZD-1048"].expect).toMatchObject({ action: "credit", amount: 2000, target: "in_NwOct" });
    expect(byLabel["ZD-1050"]).toMatchObject({ claim: "policy", expect: null, terminal_status: ["new", "open", "pending", "hold", "solved", "closed"] });
    expect(byLabel["ZD-1051"]).toMatchObject({ expect: { target: "ch_NwSep2", amount: null }, terminal_status: ["solved", "hold"] });
    expect(byLabel["12"]).toMatchObject({ claim: "none", terminal_status: ["pending", "solved", "closed"] });
  });

  it("prints the summary line and one line per task on validate", async () => {
    const dir = workspace();
    const r = await run(dir, ["validate", "tasks.yaml"]);
    expect(r.code).toBe(0);
    const lines = r.out.trimEnd().split("\n");
    expect(lines).toHaveLength(13);
    expect(lines[12]).toBe("tasks: 12 (11 keyed, 1 policy-only) on tasks-fixture · isolated · 2 invariants · budget $150.00, 3 credits max");
    expect(lines[0]).toContain("ZD-1041  billing@northwind.example.com -> cus_Northwind: refund $243.00 on duplicate -> duplicate: any one of ch_NwSep1, ch_NwSep2");
  });

  it("maps real requesters through the identity map and --rewrite writes the seed's identities back, comments kept", async () => {
    const dir = workspace();
    const first = await run(dir, ["build", "tasks-mapped.yaml", "--out-seed", "a/seed.json", "--out-rubric", "a/rubric.json", "--rewrite"]);
    expect(first.err).toBe("");
    expect(first.out).toContain("rewrote tasks-mapped.yaml: 4 values replaced");
    const text = read(dir, "tasks-mapped.yaml");
    expect(text).toContain("requester: billing@northwind.example.com # a real address");
    expect(text).toContain("requester_name: Northwind Traders");
    expect(text).toContain("decoys: [finance@subsidiary.example.com]");
    expect(text).toContain("expected: escalate # both Beacon accounts are candidates");
    expect(text).toContain("# Real emails, resolved through the identity map");
    expect(text).not.toMatch(/ceo@northwind\.com|ap@beacon\.com|finance@subsidiary\.com\b|Nora West/);
    // The rewritten file builds the same rubric without the map.
    rmSync(join(dir, "..", "tasks-seed", "tasks-fixture.identities.json"));
    const second = await run(dir, ["build", "tasks-mapped.yaml", "--out-seed", "b/seed.json", "--out-rubric", "b/rubric.json", "--rewrite"]);
    expect(second.code).toBe(0);
    expect(second.out).toContain("already carries the seed's identities");
    expect(read(dir, "b/rubric.json")).toBe(read(dir, "a/rubric.json"));
    expect(read(dir, "b/seed.json")).toBe(read(dir, "a/seed.json"));
  });

  it("refuses to write over its own inputs and names a missing --out flag", async () => {
    const dir = workspace();
    const same = await run(dir, ["build", "tasks.yaml", "--out-seed", "tasks.yaml", "--out-rubric", "r.json"]);
    expect(same.code).toBe(2);
    expect(same.err).toContain("must be four different files");
    const missing = await run(dir, ["build", "tasks.yaml", "--out-seed", "s.json"]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain("--out-rubric is required");
    const unknown = await run(dir, ["build", "tasks.yaml", "--out-seeds", "s.json"]);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain("unknown option '--out-seeds'. Did you mean '--out-seed'?");
  });
});
