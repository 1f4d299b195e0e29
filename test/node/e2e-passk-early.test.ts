// `passk --server auto` starts its server while its own code loads (src/cli/main.ts): a run that ends before it
// asks for the server (a flag error, --help, a tasks file it cannot read) must still stop it and leave nothing behind.
import { afterAll, describe, expect, it } from "vitest";
import { killAllStarted, runCli } from "./helpers/cli";

afterAll(killAllStarted);

describe("passk --server auto, ended before it uses its server", () => {
  it("exits 2 on a bad flag, 0 on --help, as without the early start, and leaves no workerd behind", async () => {
    const bad = await runCli(["passk", "--server", "auto", "--runs", "0", "--tasks", "examples/agents/selftest.tasks.yaml", "--", "true"], { timeoutMs: 120_000 });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--runs");
    expect(bad.leftovers).toEqual([]);
    const help = await runCli(["passk", "--server=auto", "--help"], { timeoutMs: 120_000 });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("--server");
    expect(help.leftovers).toEqual([]);
  }, 300_000);

  it("reports a missing tasks file the same way and stops the server it started", async () => {
    const r = await runCli(["passk", "--server", "auto", "--tasks", "no-such.tasks.yaml", "--", "true"], { timeoutMs: 120_000 });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("no-such.tasks.yaml");
    expect(r.leftovers).toEqual([]);
  }, 300_000);
});
