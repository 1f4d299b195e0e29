// `worlds evals run --environment CMD` when the environment breaks, end to end (the built CLI, a local server,
// the example agent and grader): one trial's environment dies at start, the other's dies on the agent's first
// call. Neither may be blamed on the agent: both trials are infra_errors (world_create, and grade since the
// environment's state is lost), the run is inconclusive (exit 4), and no environment process outlives the run.
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alive, killAllStarted, ROOT, runCli } from "./helpers/cli";
import { assertValidResults } from "./helpers/validate-results";

const BENCH = join(ROOT, "examples", "evals", "benchmark.json");
const agent = ["node", join(ROOT, "test", "fixtures", "evals", "literal-agent.mjs")];
const grader = `node ${join(ROOT, "test", "fixtures", "evals", "play-check.mjs")}`;

// The first environment to claim the marker (mkdir is atomic, so trials may run in any order or at once) dies at
// start; the other dies on its first call. Each writes its pid so the test can check it is gone.
const BREAKS = `
import { createInterface } from "node:readline";
import { mkdirSync, writeFileSync } from "node:fs";
const dir = process.argv[2];
writeFileSync(dir + "/pid-" + process.pid, "");
let first = true;
try { mkdirSync(dir + "/claimed"); } catch { first = false; }
for await (const line of createInterface({ input: process.stdin })) {
  const req = JSON.parse(line);
  if (req.op === "start") {
    if (first) { process.stderr.write("no workspace template\\n"); process.exit(6); }
    process.stdout.write(JSON.stringify({ tools: [{ name: "build", description: "Build.", inputSchema: { type: "object", properties: {} } }] }) + "\\n");
  } else if (req.op === "close") process.exit(0);
  else { process.stderr.write("the build server crashed\\n"); process.exit(9); }
}
`;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "worlds-evals-own-env-"));
  writeFileSync(join(dir, "breaks.mjs"), BREAKS);
});
afterAll(() => {
  killAllStarted();
  rmSync(dir, { recursive: true, force: true });
});

interface Doc {
  status: string;
  exit_code: number;
  runs: Array<{ worlds: Array<{ task: string; verdict: string | null; infra_error: { stage: string; message: string } | null }> }>;
}

describe("worlds evals run with an environment that breaks", () => {
  it("makes a crash at start and a crash mid-trial infra errors, inconclusive, leaving no process", async () => {
    const env = `node ${join(dir, "breaks.mjs")} ${dir}`;
    const res = await runCli(["evals", "run", BENCH, "--server", "auto", "--trials", "2", "--task", "game-boots", "--environment", env, "--grader", grader, "--json-file", "out/r.json", "--", ...agent], { cwd: dir, timeoutMs: 240_000 });
    expect(res.code, res.stderr + res.stdout).toBe(4);
    const doc = JSON.parse(readFileSync(join(dir, "out", "r.json"), "utf8")) as Doc;
    assertValidResults(doc);
    expect(doc.status).toBe("inconclusive");
    const worlds = doc.runs.map((r) => r.worlds[0]);
    expect(worlds.map((w) => w.verdict)).toEqual(["infra_error", "infra_error"]);
    const errors = worlds.map((w) => `${w.infra_error!.stage}: ${w.infra_error!.message}`).sort();
    expect(errors[0]).toMatch(/^grade: the environment broke during the trial, so it was not graded: .*exited 9: the build server crashed$/);
    expect(errors[1]).toMatch(/^world_create: .*exited 6: no workspace template$/);
    const pids = readdirSync(dir).filter((f) => f.startsWith("pid-")).map((f) => Number(f.slice(4)));
    expect(pids).toHaveLength(2);
    expect(pids.filter(alive)).toEqual([]);
  }, 300_000);
});
