// Tools worlds on documents nobody here wrote (test/fixtures/tools/corpus, README there): for each, init's summary
// line and every refusal line, then generate and a run of the literal agent, which must grade passed. The
// petstore is the issue's case: refused whole before answers were simulated, now 4 tools with deletePet a target.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { killAllStarted, ROOT, runCli } from "./helpers/cli";

const CORPUS = join(ROOT, "test", "fixtures", "tools", "corpus");
const agent = join(ROOT, "examples", "agents", "tools-literal.mjs");
const dirs: string[] = [];

afterAll(() => {
  killAllStarted();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

interface Case {
  file: string;
  flags?: string[];
  counts: string;
  refused: string[];
  forms: string[];
}

const STRIPE_SELECTION = ["--own-include", "path:/v1/refunds*", "--own-include", "path:/v1/charges*", "--own-include", "path:/v1/customers*"];

const CASES: Case[] = [
  { file: "petstore-expanded.yaml", counts: "4 tools: 2 read, 2 write, 0 not known (treated as write), 0 refused", refused: [], forms: ["call"] },
  {
    file: "stripe-subset.json",
    flags: STRIPE_SELECTION,
    counts: "10 tools: 3 read, 3 write, 0 not known (treated as write), 4 refused",
    refused: [
      "PostCustomersCustomer: its schema uses anyOf (at metadata), which the simulator cannot check exactly",
      "GetRefunds: its schema uses anyOf (at created), which the simulator cannot check exactly",
      "PostRefunds: its schema uses anyOf (at metadata), which the simulator cannot check exactly",
      "PostRefundsRefund: its schema uses anyOf (at metadata), which the simulator cannot check exactly",
    ],
    forms: ["call", "read-then-call"],
  },
  { file: "mcp-filesystem.json", counts: "14 tools: 10 read, 4 write, 0 not known (treated as write), 0 refused", refused: [], forms: ["call"] },
  { file: "mcp-memory.json", counts: "9 tools: 3 read, 6 write, 0 not known (treated as write), 0 refused", refused: [], forms: ["call"] },
  { file: "mcp-everything.json", counts: "13 tools: 9 read, 4 write, 0 not known (treated as write), 0 refused", refused: [], forms: ["call", "read-then-call"] },
  {
    file: "mcp-git.json",
    counts: "12 tools: 5 read, 4 write, 0 not known (treated as write), 3 refused",
    refused: [
      "git_log: its schema uses anyOf (at start_timestamp), which the simulator cannot check exactly",
      "git_create_branch: its schema uses anyOf (at base_branch), which the simulator cannot check exactly",
      "git_branch: its schema uses anyOf (at contains), which the simulator cannot check exactly",
    ],
    forms: ["call"],
  },
];

function folderWith(file: string): string {
  const dir = mkdtempSync(join(tmpdir(), "worlds-corpus-"));
  dirs.push(dir);
  cpSync(join(CORPUS, file), join(dir, file));
  return dir;
}

const refusedLines = (out: string) => out.split("\n").filter((l) => l.startsWith("  refused ")).map((l) => l.replace(/^ {2}refused\s+/, ""));

describe("the corpus: real tool documents", () => {
  for (const c of CASES) {
    it(`${c.file}: the summary, every refusal, and a literal agent graded passed`, { timeout: 240_000 }, async () => {
      const dir = folderWith(c.file);
      const init = await runCli(["tools", "init", "--own-file", c.file, ...(c.flags ?? [])], { cwd: dir });
      expect(init.code, init.stderr).toBe(0);
      expect(init.stdout).toContain(`: ${c.counts}; file: `);
      expect(refusedLines(init.stdout)).toEqual(c.refused);
      const config = join(dir, "worlds", "tools.yaml");
      const yaml = readFileSync(config, "utf8");
      // init writes only the forms generate can make, by generate's own rule.
      expect(yaml).toContain(`arms:\n${c.forms.map((f) => `  - ${f}\n`).join("")}`);
      writeFileSync(config, yaml.replace("tasks_per_arm: 10", "tasks_per_arm: 2"));
      const doctor = await runCli(["tools", "doctor"], { cwd: dir });
      expect(doctor.code, doctor.stderr).toBe(0);
      expect(refusedLines(doctor.stdout)).toEqual(c.refused);
      const gen = await runCli(["tools", "generate"], { cwd: dir });
      expect(gen.code, gen.stderr).toBe(0);
      const run = await runCli(["tools", "run", "--server", "auto", "--runs", "1", "--", process.execPath, agent], { cwd: dir, timeoutMs: 200_000 });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).toMatch(/status: passed \(exit 0\)/);
    });
  }

  it("the petstore: deletePet is the target, addPet (free text only) offered and never one, the effects by HTTP method", async () => {
    const dir = folderWith("petstore-expanded.yaml");
    const init = await runCli(["tools", "init", "--own-file", "petstore-expanded.yaml"], { cwd: dir });
    expect(init.stdout).toContain("effect      HTTP method GET: findPets, find_pet_by_id");
    expect(init.stdout).toContain("effect      HTTP method DELETE: deletePet");
    expect(init.stdout).toContain("offered     addPet: only free-text arguments, so it is offered but never a task's target");
    await runCli(["tools", "generate"], { cwd: dir });
    const rows = readFileSync(join(dir, "worlds", "tasks", "call.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { expected: { calls: Array<{ name: string; arguments: { id: number } }> } });
    expect(new Set(rows.map((r) => r.expected.calls.map((x) => x.name).join()))).toEqual(new Set(["deletePet"]));
    expect(rows.every((r) => Number.isInteger(r.expected.calls[0].arguments.id))).toBe(true);
  });

  it("a set refused whole (the fetch server's one tool) says so in one line, exit 2, nothing written", async () => {
    const dir = folderWith("mcp-fetch.json");
    const init = await runCli(["tools", "init", "--own-file", "mcp-fetch.json"], { cwd: dir });
    expect(init.code).toBe(2);
    expect(init.stderr.trim()).toBe("worlds tools init: mcp-fetch.json: the set is refused: only 1 usable tool remains; a set needs at least 2");
    expect(() => readFileSync(join(dir, "worlds", "tools.yaml"))).toThrow();
  });

  it("the Stripe subset: the selection is saved, is part of the digest, and a filter that chooses nothing is refused", async () => {
    const dir = folderWith("stripe-subset.json");
    const init = await runCli(["tools", "init", "--own-file", "stripe-subset.json", ...STRIPE_SELECTION, "--own-exclude", "DeleteCustomersCustomer"], { cwd: dir });
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain("9 of its 11 tools chosen by --own-include 'path:/v1/refunds*' --own-include 'path:/v1/charges*' --own-include 'path:/v1/customers*' --own-exclude 'DeleteCustomersCustomer'");
    const yaml = readFileSync(join(dir, "worlds", "tools.yaml"), "utf8");
    expect(yaml).toContain("include:\n  - path:/v1/refunds*\n  - path:/v1/charges*\n  - path:/v1/customers*\nexclude:\n  - DeleteCustomersCustomer\n");
    const digest = (out: string) => /digest with the selection ([0-9a-f]{64})/.exec(out)?.[1];
    const other = await runCli(["tools", "init", "--force", "--own-file", "stripe-subset.json", ...STRIPE_SELECTION], { cwd: dir });
    expect(digest(other.stdout)).toMatch(/^[0-9a-f]{64}$/);
    expect(digest(other.stdout)).not.toBe(digest(init.stdout));
    const typo = await runCli(["tools", "init", "--force", "--own-file", "stripe-subset.json", "--own-include", "path:/v1/refund"], { cwd: dir });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("--own-include path:/v1/refund chose no operation in the document");
  });
});
