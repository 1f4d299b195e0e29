// passk refuses what `tasks validate` refuses, before any world exists and with the same exit code (2): a policy
// file that is not there, a scenario the library does not hold.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { AdminClient } from "../client";
import { loadTasks } from "./load";

const SEED = join(import.meta.dirname, "..", "..", "..", "test", "fixtures", "tasks-seed", "account.json");
const dir = mkdtempSync(join(tmpdir(), "worlds-load-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
// A .json seed is read from disk: the server is never asked.
const client = {} as AdminClient;

function file(extra: string): string {
  const path = join(dir, `t${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(path, `version: 1\nseed: ${SEED}\n${extra}invariants: [deleted.customers==0]\ntasks:\n  - id: T1\n    requester: billing@northwind.example.com\n    subject: Help\n    body: Please help.\n    expected: none\n`);
  return path;
}

describe("loadTasks", () => {
  it("compiles a good file", async () => {
    expect((await loadTasks(file(""), client)).ok).toBe(true);
  });

  it("refuses a policy: file that does not exist, as validate does (exit 2)", async () => {
    const r = await loadTasks(file("policy: no-such-policy.md\n"), client);
    expect(r).toMatchObject({ ok: false, exitCode: 2 });
    if (!r.ok) expect(r.problems[0]).toMatch(/:3:9: policy: policy file no-such-policy.md does not exist/);
  });

  it("leaves the file's policy alone when --policy replaces it", async () => {
    expect((await loadTasks(file("policy: no-such-policy.md\n"), client, { filePolicy: false })).ok).toBe(true);
  });

  it("refuses a scenario the library does not hold (exit 2, not a world the server refuses)", async () => {
    const r = await loadTasks(file("scenario: no-such-scenario\n"), client);
    expect(r).toMatchObject({ ok: false, exitCode: 2 });
    if (!r.ok) expect(r.problems[0]).toContain("scenario: no scenario named 'no-such-scenario': the library holds flaky-writes, rate-limit-storm");
    expect((await loadTasks(file("scenario: slow-api\n"), client)).ok).toBe(true);
  });

  it("leaves the file's scenario alone when --scenario replaces it", async () => {
    expect((await loadTasks(file("scenario: no-such-scenario\n"), client, { fileScenario: false })).ok).toBe(true);
  });
});
