// `worlds serve` through the real CLI: it serves, guards the admin API with its token, keeps state in --persist
// across restarts (migrations applied once), and stops cleanly on SIGINT/SIGTERM with no workerd left.
import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { groupMembers, killAllStarted, startCli, waitUntil } from "./helpers/cli";

afterAll(killAllStarted);

async function serve(args: string[]) {
  const p = startCli(["serve", ...args]);
  const out = await p.waitFor(/WORLDS_TOKEN=\S+\n/);
  const url = /WORLDS_URL=(\S+)/.exec(out)![1];
  const token = /WORLDS_TOKEN=(\S+)/.exec(out)![1];
  return { p, url, token };
}

describe("worlds serve", () => {
  it("prints URL and token, guards /admin with the token, and stops on SIGINT leaving nothing behind", async () => {
    const { p, url, token } = await serve([]);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(token.length).toBeGreaterThanOrEqual(32);
    expect((await fetch(`${url}/health`)).status).toBe(200);
    expect((await fetch(`${url}/admin/seeds`)).status).toBe(401);
    expect((await fetch(`${url}/admin/seeds`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    expect(groupMembers(p.pgid).length).toBeGreaterThanOrEqual(2); // node + workerd
    // Without --persist the worlds' storage is in memory (Linux: /dev/shm), named for the server's process.
    const scratch = () => (existsSync("/dev/shm") ? readdirSync("/dev/shm").filter((n) => n.startsWith(`worlds-scratch-${p.pgid}-`)) : []);
    if (existsSync("/dev/shm")) expect(scratch()).toHaveLength(1);
    p.signal("SIGINT");
    const res = await p.exited;
    expect(res.code).toBe(0);
    expect(res.stderr).toContain("SIGINT received, stopping");
    expect(await waitUntil(() => groupMembers(p.pgid).length === 0)).toBe(true);
    await expect(fetch(`${url}/health`)).rejects.toThrow();
    expect(scratch()).toEqual([]);
  });

  it("keeps worlds in --persist DIR across a restart on SIGTERM, with the given port and token", async () => {
    const dir = mkdtempSync(join(tmpdir(), "worlds-persist-"));
    const token = "a-token-for-this-test-only";
    const first = await serve(["--persist", dir, "--token", token]);
    const created = await fetch(`${first.url}/admin/worlds`, { method: "POST", headers: { authorization: `Bearer ${token}` }, body: JSON.stringify({ seed: "acme-small" }) });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    first.p.signal("SIGTERM");
    expect((await first.p.exited).code).toBe(0);
    expect(await waitUntil(() => groupMembers(first.p.pgid).length === 0)).toBe(true);

    const port = Number(new URL(first.url).port);
    const second = await serve(["--persist", dir, "--token", token, "--port", String(port)]);
    expect(second.url).toBe(first.url);
    const again = await fetch(`${second.url}/admin/worlds/${id}`, { headers: { authorization: `Bearer ${token}` } });
    expect(again.status).toBe(200);
    second.p.signal("SIGINT");
    expect((await second.p.exited).code).toBe(0);
  });

  it("refuses bad flags with exit 2 and names them", async () => {
    const p = startCli(["serve", "--port", "99999"]);
    const res = await p.exited;
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("--port must be at most 65535 (got '99999')");
    const q = startCli(["serve", "--token", "short"]);
    expect((await q.exited).stderr).toContain("--token must be at least 16 characters");
  });
});
