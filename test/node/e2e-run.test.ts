// `worlds run` through the real CLI and a local server it starts itself: the agent environment, the diff, and
// the exit codes for a good command, a failing one, a missing one, a hang, no server named (the local one) and an unreachable one.
import { afterAll, describe, expect, it } from "vitest";
import { killAllStarted, runCli } from "./helpers/cli";

afterAll(killAllStarted);

describe("worlds run", () => {
  it("gives the command a world's endpoints and key, and prints the world's diff as JSON", async () => {
    const script = `const e=process.env;console.log(JSON.stringify({key:e.STRIPE_API_KEY,base:e.STRIPE_API_BASE,desk:e.ZENDESK_URL,deskKey:e.ZENDESK_API_TOKEN,url:e.WORLDS_URL,world:e.WORLDS_WORLD_ID,token:e.WORLDS_TOKEN??null}))`;
    const res = await runCli(["run", "--server", "auto", "--json", "--", process.execPath, "-e", script]);
    expect(res.code).toBe(0);
    expect(res.leftovers).toEqual([]);
    const out = JSON.parse(res.stdout) as { world: { id: string }; agent: { reply: string; exit_code: number }; diff: { world: string; entries: unknown[] } };
    const seen = JSON.parse(out.agent.reply) as Record<string, string | null>;
    expect(seen.world).toBe(out.world.id);
    expect(seen.key).toMatch(/^sk_test_/);
    expect(seen.deskKey).toBe(seen.key);
    expect(seen.base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(seen.desk).toBe(seen.base);
    expect(seen.url).toBe(seen.base);
    expect(seen.token).toBeNull(); // the admin token never reaches an agent
    expect(out.diff.world).toBe(out.world.id);
    expect(out.diff.entries).toEqual([]);
  });

  it("exits 1 for a failing or hanging command, 2 for one that does not exist, 3 for a server that does not answer", async () => {
    const crash = await runCli(["run", "--server", "auto", "--", "sh", "-c", "exit 5"]);
    expect(crash.code, crash.stderr).toBe(1);
    expect(crash.stdout).toContain("exited 5");
    const hang = await runCli(["run", "--server", "auto", "--timeout", "1", "--", "sleep", "30"]);
    expect(hang.code, hang.stderr).toBe(1);
    expect(hang.stdout).toContain("timed out");
    expect(hang.leftovers).toEqual([]);
    const missing = await runCli(["run", "--server", "auto", "--", "/no/such/agent"]);
    expect(missing.code, missing.stderr).toBe(2);
    expect(missing.stdout).toContain("ENOENT");
    // No server named: the local one, said once on stderr (as the documents write the command, no flag).
    const none = await runCli(["run", "--", "true"]);
    expect(none.code, none.stderr).toBe(0);
    expect(none.stderr.split("\n").filter((l) => l.includes("no server named"))).toEqual(["no server named: running a local one; --url URL for yours"]);
    expect(none.leftovers).toEqual([]);
    const unreachable = await runCli(["run", "--url", "http://127.0.0.1:9", "--token", "x", "--", "true"]);
    expect(unreachable.code).toBe(3);
    expect(unreachable.stderr).toContain("no worlds server answers at http://127.0.0.1:9");
    const noCommand = await runCli(["run", "--server", "auto"]);
    expect(noCommand.code).toBe(2);
  });
});
