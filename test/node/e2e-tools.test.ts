// Tools worlds end to end through the real CLI and the real local server: init on the spec's five-tool file,
// generate (the same bytes twice), then runs whose verdicts are known: a literal agent passes every form; the
// same agent repeating its write is collateral_mutation; calling a tool outside the block is malformed_call.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killAllStarted, ROOT, runCli } from "./helpers/cli";
import { assertValidResults } from "./helpers/validate-results";

let dir: string;
const agent = join(ROOT, "examples", "agents", "tools-literal.mjs");

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "worlds-tools-"));
  cpSync(join(ROOT, "test", "fixtures", "tools", "orders.openai.json"), join(dir, "tools.json"));
  const init = await runCli(["tools", "init", "--own-file", "tools.json", "--own-name", "acme", "--own-read", "get_order", "--own-read", "search_orders", "--own-read", "list_channels", "--own-flow", "get_order.id:refund_order.order_id"], { cwd: dir });
  expect(init.code, init.stderr).toBe(0);
  expect(init.stdout).toContain("acme: 5 tools: 3 read, 0 write, 2 not known (treated as write), 0 refused; file: an OpenAI tools file, sha256 bf34e029e3fa609162c90e8709251c32db608d8aa0afd1f23432d500bd007ece");
  // Two tasks per form keep the runs short; the settings file is the user's to edit.
  const config = join(dir, "worlds", "tools.yaml");
  writeFileSync(config, readFileSync(config, "utf8").replace("tasks_per_arm: 10", "tasks_per_arm: 2"));
});

afterAll(() => {
  killAllStarted();
  rmSync(dir, { recursive: true, force: true });
});

describe("worlds tools", () => {
  it("doctor prints the summary and the forms; init refuses to overwrite without --force", async () => {
    const doc = await runCli(["tools", "doctor"], { cwd: dir });
    expect(doc.code, doc.stderr).toBe(0);
    expect(doc.stdout).toMatch(/flow\s+reachable: get_order.id -> refund_order.order_id/);
    expect(doc.stdout).toContain("choosing a tool is partly a word match");
    const again = await runCli(["tools", "init", "--own-file", "tools.json"], { cwd: dir });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/exists; pass --force/);
  });

  it("generate writes one JSON line per task, the same bytes every time", async () => {
    const first = await runCli(["tools", "generate"], { cwd: dir });
    expect(first.code, first.stderr).toBe(0);
    const bytes = ["call", "read-then-call", "flow"].map((a) => readFileSync(join(dir, "worlds", "tasks", `${a}.jsonl`), "utf8"));
    await runCli(["tools", "generate"], { cwd: dir });
    expect(["call", "read-then-call", "flow"].map((a) => readFileSync(join(dir, "worlds", "tasks", `${a}.jsonl`), "utf8"))).toEqual(bytes);
    const row = JSON.parse(bytes[2].split("\n")[0]) as { request: string; tools: unknown[]; expected: { calls: Array<{ name: string }> } };
    expect(row.tools).toHaveLength(5);
    expect(row.expected.calls.map((c) => c.name)).toEqual(["get_order", "refund_order"]);
    expect(row.request).not.toMatch(/get_order|refund_order/);
  });

  it("the literal agent passes every form over two runs (exit 0), with pass^k in the shared results", async () => {
    const res = await runCli(["tools", "run", "--server", "auto", "--runs", "2", "--json-file", join(dir, "r.json"), "--", process.execPath, agent], { cwd: dir, timeoutMs: 240_000 });
    expect(res.code, res.stderr + res.stdout).toBe(0);
    expect(res.stdout).toMatch(/status: passed \(exit 0\)/);
    const results = JSON.parse(readFileSync(join(dir, "r.json"), "utf8")) as { exit_code: number; crash_test: { pass_hat: Array<{ k: number; value: number }> } };
    assertValidResults(results);
    expect(results.exit_code).toBe(0);
    expect(res.leftovers).toEqual([]);
  });

  // Two runs with their own servers: generous on a loaded machine.
  it("known failing verdicts: a repeated write is collateral_mutation, a tool outside the block malformed_call (exit 1)", { timeout: 480_000 }, async () => {
    const twice = await runCli(["tools", "run", "--server", "auto", "--runs", "1", "--json", "--", process.execPath, agent, "--twice"], { cwd: dir, timeoutMs: 240_000 });
    expect(twice.code, twice.stderr).toBe(1);
    assertValidResults(JSON.parse(twice.stdout));
    const verdicts = (r: string) => (JSON.parse(r) as { runs: Array<{ worlds: Array<{ verdict: string }> }> }).runs.flatMap((x) => x.worlds.map((w) => w.verdict));
    expect(new Set(verdicts(twice.stdout)), twice.stdout.match(/"infra_error": \{[^}]*\}/g)?.join("\n")).toEqual(new Set(["collateral_mutation"]));
    const wrong = await runCli(["tools", "run", "--server", "auto", "--runs", "1", "--json", "--", process.execPath, agent, "--wrong-tool"], { cwd: dir, timeoutMs: 240_000 });
    expect(wrong.code).toBe(1);
    expect(new Set(verdicts(wrong.stdout)), wrong.stdout.match(/"infra_error": \{[^}]*\}/g)?.join("\n")).toEqual(new Set(["malformed_call"]));
  });
});
