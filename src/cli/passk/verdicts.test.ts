import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { syntheticRun, uniform } from "../../core/compare/synthetic.fixture";
import { renderText } from "../../core/report/index";
import { serializeResults } from "../../core/results/index";
import { main } from "../main";
import { finishVerdicts, gateRunsProblem, prepareVerdicts, textWithComparison } from "./verdicts";

const dir = mkdtempSync(join(tmpdir(), "worlds-verdicts-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

const write = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

describe("prepareVerdicts", () => {
  it("parses the gates and reads the baseline", () => {
    const base = write("base.json", serializeResults(syntheticRun(uniform("T", 3, "✓✓✓"))));
    const p = prepareVerdicts({ gate: ["pass^3>=0.8"], baseline: base });
    expect(p.ok && p.prepared.gates[0]).toMatchObject({ metric: "pass^k", k: 3 });
    expect(p.ok && p.prepared.baseline?.file).toBe(base);
  });
  it("refuses a bad gate and a bad baseline, naming the flag, the file and the field", () => {
    expect(prepareVerdicts({ gate: ["pass^3=0.8"] })).toMatchObject({ ok: false, message: expect.stringMatching(/^--gate 'pass\^3=0\.8' is not a gate/) });
    expect(prepareVerdicts({ baseline: join(dir, "missing.json") })).toMatchObject({ ok: false, message: expect.stringMatching(/^--baseline .*missing\.json: cannot be read \(ENOENT\)/) });
    const doc = JSON.parse(serializeResults(syntheticRun(uniform("T", 2, "✓✓"))));
    doc.runs[0].worlds[0].passed = "yes";
    expect(prepareVerdicts({ baseline: write("bad.json", JSON.stringify(doc)) })).toMatchObject({ ok: false, message: expect.stringMatching(/bad\.json: runs\.0\.worlds\.0\.passed: /) });
  });
  it("notes a baseline that holds no crash test and goes on without it", () => {
    const early = write("early.json", JSON.stringify({ schema: "worlds.results/1", status: "setup_failed", reason: "r", next_action: "n", exit_code: 3, generated_at: null }));
    const p = prepareVerdicts({ baseline: early });
    expect(p.ok && p.prepared.baseline).toBeNull();
    expect(p.ok && p.prepared.notes[0]).toMatch(/holds no crash test \(that run was setup_failed\)/);
  });
  it("refuses pass^K with fewer than K runs", () => {
    const p = prepareVerdicts({ gate: ["pass^1>=0.5", "pass^5>=0.5"] });
    expect(p.ok && gateRunsProblem(p.prepared, 3)).toBe("--gate pass^5>=0.5 needs at least 5 runs of every task; this run makes 3 (--runs 5 or more)");
    expect(p.ok && gateRunsProblem(p.prepared, 5)).toBeNull();
  });
});

describe("finishVerdicts", () => {
  const rerun = { source: ["--tasks", "worlds/tasks.yaml"], serverFlags: ["--url", "http://127.0.0.1:26001"], serverEnv: ["WORLDS_TOKEN" as const], replayFlags: [], only: [], agent: ["node", "my agent.mjs"] };
  it("an undecided gate names the command that would decide it, gates and baseline included", () => {
    const base = write("b.json", serializeResults(syntheticRun(uniform("T", 5, "✓✓✓"))));
    const p = prepareVerdicts({ gate: ["pass^3>=0.8"], baseline: base });
    if (!p.ok) throw new Error(p.message);
    const { results, comparison } = finishVerdicts(syntheticRun(uniform("T", 5, "✓✓✓")), p.prepared, rerun);
    expect(results.status).toBe("policy_failed");
    // The token came as --token: the line names the variable it needs, never the token itself.
    expect(results.next_action).toBe(`run enough to decide: WORLDS_TOKEN=… worlds passk --tasks worlds/tasks.yaml --url http://127.0.0.1:26001 --runs 10 --gate 'pass^3>=0.8' --baseline ${base} -- node 'my agent.mjs'`);
    expect(results.baseline).toMatchObject({ source: base, status: "passed" });
    expect(comparison!.status).toBe("passed");
  });
  it("prints the comparison inline, before the two contract lines", () => {
    const base = write("b2.json", serializeResults(syntheticRun(uniform("T", 6, "✓✓✓✓✓✓"))));
    const p = prepareVerdicts({ baseline: base });
    if (!p.ok) throw new Error(p.message);
    const now = syntheticRun([...uniform("T", 6, "✓✓✓✓✓✓").slice(0, 5), { id: "T-6", marks: "✗✗✗✗✗✗" }]);
    const { results, comparison } = finishVerdicts(now, p.prepared, rerun);
    const text = textWithComparison(renderText(results), comparison);
    const lines = text.trimEnd().split("\n");
    expect(lines.at(-2)).toMatch(/^status: policy_failed \(exit 1\)/);
    expect(lines.at(-1)).toMatch(/^next: /);
    expect(text).toContain(`\nagainst the baseline ${base}:\ncompare: base ${base} (6 runs · 6 keyed tasks · passed) → new this run (6 runs`);
    expect(text).toMatch(/\nworse \(1\):\n {2}T-6 /);
    expect(text).not.toMatch(/\nstatus: regressed/);
  });
  it("leaves a run untouched without gates or a baseline", () => {
    const r = syntheticRun(uniform("T", 2, "✓✓"));
    const p = prepareVerdicts({});
    expect(p.ok && finishVerdicts(r, p.prepared, rerun).results).toBe(r);
  });
});

describe("passk refuses bad gates and baselines before it starts a server", () => {
  it("exit 2 with the contract-only JSON", async () => {
    let out = "";
    vi.spyOn(process.stdout, "write").mockImplementation((c: string | Uint8Array) => ((out += String(c)), true));
    vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    expect(await main(["passk", "--tasks", "examples/quickstart.tasks.yaml", "--server", "auto", "--gate", "pass^3 = 80", "--json", "--", "node", "a.mjs"])).toBe(2);
    expect(JSON.parse(out)).toMatchObject({ status: "configuration_incomplete", exit_code: 2, reason: expect.stringContaining("--gate 'pass^3 = 80' is not a gate") });
    out = "";
    expect(await main(["passk", "--tasks", "examples/quickstart.tasks.yaml", "--server", "auto", "--baseline", join(dir, "nope.json"), "--", "node", "a.mjs"])).toBe(2);
    expect(out).toMatch(/^status: configuration_incomplete \(exit 2\) — --baseline .*nope\.json: cannot be read/);
  });
});
