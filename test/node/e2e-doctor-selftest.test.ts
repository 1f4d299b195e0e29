// `worlds doctor` and `worlds selftest` through the real CLI, each with a local server of its own.
import { afterAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import { killAllStarted, ROOT, runCli } from "./helpers/cli";

afterAll(killAllStarted);

const agent = (name: string) => ["node", join(ROOT, "examples", "agents", name)];

describe("worlds doctor", () => {
  it("passes a working agent and names the next action for each failure", async () => {
    const good = await runCli(["doctor", "--server", "auto", "--", ...agent("careful.mjs")]);
    expect(good.code).toBe(0);
    expect(good.stdout).toMatch(/ok {4}twin traffic: \d+ billing/);
    expect(good.leftovers).toEqual([]);

    const silent = await runCli(["doctor", "--server", "auto", "--", ...agent("silent.mjs")]);
    expect(silent.code).toBe(4);
    expect(silent.stdout).toContain("FAIL  twin traffic: no request reached the world");
    expect(silent.stdout).toMatch(/next: read STRIPE_API_KEY and STRIPE_API_BASE/);

    const crash = await runCli(["doctor", "--server", "auto", "--", ...agent("crash.mjs")]);
    expect(crash.code).toBe(1);
    expect(crash.stdout).toContain("exited 3");
    expect(crash.stdout).toContain("| crash.mjs: failing on purpose");

    const missing = await runCli(["doctor", "--server", "auto", "--", "/no/such/agent"]);
    expect(missing.code).toBe(2);
    expect(missing.stdout).toContain("ENOENT");

    // As the README writes it: no server named, so doctor starts the local one rather than exiting 3.
    const noServer = await runCli(["doctor", "--", "true"]);
    expect(noServer.stdout).toMatch(/ok {4}server: started locally at http:\/\/127\.0\.0\.1:\d+ for this check/);
    expect(noServer.code).toBe(4);
    expect(noServer.leftovers).toEqual([]);

    // The line that says why comes first in a crash and the last five lines alone would cut it.
    const stack = ["node", "-e", "console.error(\"Error: Cannot find module 'stripe'\"); for (let i = 0; i < 20; i++) console.error('    at frame ' + i); process.exit(1)"];
    const deep = await runCli(["doctor", "--server", "auto", "--", ...stack]);
    expect(deep.code).toBe(1);
    expect(deep.stdout).toContain("| Error: Cannot find module 'stripe'");
    expect(deep.stdout).toMatch(/\| +at frame 19\n/);
  }, 300_000);
});

describe("worlds selftest", () => {
  it("grades every reference agent as expected and exits 0", async () => {
    const res = await runCli(["selftest"], { timeoutMs: 280_000 });
    expect(res.stdout).toContain("selftest passed");
    expect(res.stdout).not.toContain("FAIL");
    expect(res.code).toBe(0);
    expect(res.leftovers).toEqual([]);
  }, 300_000);
});
