// `worlds passk` end to end: the real built CLI, a local server it starts itself (--server auto, or none named), the bundled
// selftest tasks file and the reference agents. Every results document is validated against the schema.
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { alive, groupMembers, killAllStarted, ROOT, runCli, startCli, waitUntil } from "./helpers/cli";
import { assertValidResults } from "./helpers/validate-results";

afterAll(killAllStarted);

// Several CLI runs per test, each starting its own server: generous on a loaded two-core machine.
const SLOW = 300_000;

const TASKS = "examples/agents/selftest.tasks.yaml";
const agent = (name: string) => ["node", join(ROOT, "examples", "agents", name)];
const passk = (extra: string[], command: string[]) => runCli(["passk", "--tasks", TASKS, "--server", "auto", "--concurrency", "2", ...extra, "--", ...command], { timeoutMs: 180_000 });

interface ResultsDoc {
  status: string;
  reason: string;
  exit_code: number;
  mode: string;
  tasks: { items: { id: string }[] };
  runs: { worlds: { task: string; verdict: string | null; reply: { bytes: number; truncated: boolean } | null; agent: { exit_code: number | null; timed_out: boolean; start_error: string | null; signal: string | null } | null; infra_error: { stage: string } | null }[] }[];
  crash_test: { flawless_runs: number };
}
const parse = (stdout: string) => {
  const doc = JSON.parse(stdout) as ResultsDoc;
  assertValidResults(doc);
  return doc;
};
const worlds = (d: ResultsDoc) => d.runs.flatMap((r) => r.worlds);

describe("worlds passk", () => {
  it("isolated: the careful agent passes, with JSON, JUnit and HTML written and nothing left running", async () => {
    const dir = mkdtempSync(join(tmpdir(), "worlds-passk-"));
    const res = await passk(["--runs", "2", "--json", "--json-file", join(dir, "r.json"), "--junit", join(dir, "r.xml"), "--report", join(dir, "r.html")], agent("careful.mjs"));
    expect(res.stderr).toContain("tasks: 3 (3 keyed, 0 policy-only) on acme-small · isolated · 2 invariants");
    expect(res.code).toBe(0);
    expect(res.leftovers).toEqual([]);
    const doc = parse(res.stdout);
    expect(doc).toMatchObject({ status: "passed", exit_code: 0, mode: "isolated", crash_test: { flawless_runs: 2 } });
    expect(worlds(doc)).toHaveLength(6);
    expect(worlds(doc).every((w) => w.verdict === "passed" && w.agent?.exit_code === 0)).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, "r.json"), "utf8"))).toEqual(doc);
    expect(readFileSync(join(dir, "r.xml"), "utf8")).toContain("<testsuite");
    expect(readFileSync(join(dir, "r.html"), "utf8")).toMatch(/^<!doctype html>/i);
  }, SLOW);

  it("shift: one world per run holding every task; the careful agent works the desk and passes", async () => {
    const res = await passk(["--mode", "shift", "--runs", "2", "--json"], agent("careful.mjs"));
    expect(res.code).toBe(0);
    const doc = parse(res.stdout);
    expect(doc.mode).toBe("shift");
    const ids = new Set(worlds(doc).map((w) => (w as { world?: string }).world));
    expect(ids.size).toBe(2);
  }, SLOW);

  it("exit 1 for policy failures (reckless: overreach; liar: false_claim), 4 when the agent never reaches the twin", async () => {
    const reckless = await passk(["--json", "--explain", "SELF-1"], agent("reckless.mjs"));
    expect(reckless.code).toBe(1);
    expect(worlds(parse(reckless.stdout)).map((w) => w.verdict)).toContain("overreach");
    // The agent's calls: each refund it posted, linked to the diff entry it made, whose customer is filled.
    const self1 = worlds(parse(reckless.stdout)).find((w) => w.task === "SELF-1") as unknown as { trace: { steps: { surface: string; method: string; target: string; changes: string[] }[] }; evidence: { diff: { id: string; op: string; type: string; customer: string | null }[] } };
    const refunds = self1.trace.steps.filter((s) => s.method === "POST" && s.target === "/v1/refunds");
    expect(refunds.length).toBeGreaterThan(1);
    for (const e of self1.evidence.diff) {
      expect(e.customer).toBe("cus_AcmeNorthwind");
      if (e.type === "refunds") expect(refunds.filter((s) => s.changes.includes(`created refunds ${e.id}`))).toHaveLength(1);
    }
    expect(reckless.stderr).toMatch(/\nSELF-1 "Charged twice for September" · expected refund \$99\.00 on duplicate\n/);
    expect(reckless.stderr).toMatch(/    #3 billing POST \/v1\/refunds charge=ch_AcmeNorthwindDup → 200 refund re_\w+ amount=9900 status=succeeded \[created refunds re_\w+; updated charges ch_AcmeNorthwindDup\]/);
    // As the documents write it, no server named: the local one, said on stderr, and a replay line without a server flag.
    const liar = await runCli(["passk", "--tasks", TASKS, "--json", "--task", "SELF-1", "--", ...agent("liar.mjs")], { timeoutMs: 180_000 });
    expect(liar.code, liar.stderr).toBe(1);
    expect(liar.stderr).toContain("no server named: running a local one; --url URL for yours\n");
    expect(liar.leftovers).toEqual([]);
    const liarDoc = parse(liar.stdout) as ResultsDoc & { crash_test: { worst_task: { replay: string } } };
    expect(worlds(liarDoc).map((w) => w.verdict)).toEqual(["false_claim"]);
    expect(liarDoc.crash_test.worst_task.replay).toBe(`worlds passk --tasks ${TASKS} --task SELF-1 --runs 1 -- ${agent("liar.mjs").join(" ")}`);
    const silent = await passk([], agent("silent.mjs"));
    expect(silent.code).toBe(4);
    expect(silent.stdout).toMatch(/status: inconclusive \(exit 4\)/);
    expect(silent.stdout).toMatch(/\nnext: .*worlds doctor/);
  }, SLOW);

  it("--task filters the file, and an unknown task id is a configuration error", async () => {
    const res = await passk(["--json", "--task", "SELF-2", "--task", "3"], agent("careful.mjs"));
    expect(res.code).toBe(0);
    expect(parse(res.stdout).tasks.items.map((t) => t.id)).toEqual(["SELF-2", "SELF-3"]);
    const bad = await passk(["--json", "--task", "NOPE"], agent("careful.mjs"));
    expect(bad.code).toBe(2);
    expect(parse(bad.stdout).status).toBe("configuration_incomplete");
    expect(bad.stderr).toContain("'NOPE' matches no task");
  }, SLOW);

  it("records a crash, a hang past --timeout, 10 MB of stdout and a missing command without failing the run", async () => {
    const crash = await passk(["--json", "--task", "SELF-1"], agent("crash.mjs"));
    expect(crash.code).toBe(1);
    expect(worlds(parse(crash.stdout))[0].agent).toMatchObject({ exit_code: 3 });
    expect(crash.stdout).toContain("agent stderr: crash.mjs: failing on purpose");

    const hang = await passk(["--json", "--task", "SELF-1", "--timeout", "2"], ["sh", "-c", "sleep 60 & sleep 60"]);
    expect(hang.leftovers).toEqual([]);
    const hung = worlds(parse(hang.stdout))[0];
    expect(hung.agent).toMatchObject({ timed_out: true });
    expect(hang.code).not.toBe(0);

    const flood = await passk(["--json", "--task", "SELF-1"], ["node", "-e", "const b=Buffer.alloc(1<<20,97);for(let i=0;i<10;i++)process.stdout.write(b)"]);
    const flooded = worlds(parse(flood.stdout))[0];
    expect(flooded.agent).toMatchObject({ exit_code: 0, timed_out: false });
    expect(flooded.reply).toMatchObject({ bytes: 10 * (1 << 20), truncated: true });

    const missing = await passk(["--json"], ["/no/such/agent-binary"]);
    expect(missing.code).toBe(2);
    const doc = parse(missing.stdout);
    expect(doc.status).toBe("configuration_incomplete");
    expect(worlds(doc).every((w) => w.infra_error?.stage === "agent_start")).toBe(true);
  }, SLOW);

  it("setup and configuration failures: a server that does not answer (3), an unknown seed (3), a broken tasks file (2), a bad flag (2), no command (2)", async () => {
    const noServer = await runCli(["passk", "--tasks", TASKS, "--url", "http://127.0.0.1:9", "--token", "x", "--json", "--", "true"]);
    expect(noServer.code).toBe(3);
    expect(parse(noServer.stdout).status).toBe("setup_failed");

    const dir = mkdtempSync(join(tmpdir(), "worlds-tasks-"));
    const text = readFileSync(join(ROOT, TASKS), "utf8");
    writeFileSync(join(dir, "unknown-seed.yaml"), text.replace("seed: acme-small", "seed: no-such-seed"));
    const unknownSeed = await runCli(["passk", "--tasks", join(dir, "unknown-seed.yaml"), "--server", "auto", "--json", "--", "true"]);
    expect(unknownSeed.code).toBe(3);
    expect(parse(unknownSeed.stdout).reason).toContain("no-such-seed");

    writeFileSync(join(dir, "broken.yaml"), text.replace("expected: cancel at period end", "expected: cancel later maybe"));
    const broken = await runCli(["passk", "--tasks", join(dir, "broken.yaml"), "--server", "auto", "--", "true"]);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain("SELF-2");

    const badFlag = await runCli(["passk", "--tasks", TASKS, "--runs", "zero", "--", "true"]);
    expect(badFlag.code).toBe(2);
    expect(badFlag.stderr).toContain("--runs must be a whole number (got 'zero')");
    const noCommand = await runCli(["passk", "--tasks", TASKS, "--server", "auto"]);
    expect(noCommand.code).toBe(2);
  }, SLOW);

  it("Ctrl-C mid-run stops the agents, the worlds and the server, exits 130 and leaves no process behind", async () => {
    const dir = mkdtempSync(join(tmpdir(), "worlds-sigint-"));
    const p = startCli(["passk", "--tasks", TASKS, "--server", "auto", "--concurrency", "2", "--json", "--", "sh", "-c", `echo $$ > ${dir}/$$.pid; sleep 60`]);
    expect(await waitUntil(() => readdirSync(dir).length >= 2, 120_000)).toBe(true);
    const agents = readdirSync(dir).map((f) => Number(f.replace(".pid", "")));
    p.signal("SIGINT");
    const res = await p.exited;
    expect(res.code).toBe(130);
    const doc = parse(res.stdout);
    expect(doc.status).toBe("interrupted");
    expect(await waitUntil(() => groupMembers(p.pgid).length === 0 && agents.every((pid) => !alive(pid) && groupMembers(pid).length === 0), 5_000)).toBe(true);
    expect(existsSync(dir)).toBe(true);
  }, SLOW);
});
