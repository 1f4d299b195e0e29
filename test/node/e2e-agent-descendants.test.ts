// Issue 11 item 5 end to end: an agent that starts `sleep 300` with {detached: true} (its own session and
// process group) and exits. Before, the sleep outlived `worlds passk`; nothing an agent starts may outlive its
// world.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { killAllStarted, runCli, waitUntil } from "./helpers/cli";

afterAll(killAllStarted);

/** Running, not a zombie waiting to be reaped. */
function running(pid: number): boolean {
  try {
    return !/^\S+ \(.*\) [ZX] /.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

describe.runIf(process.platform === "linux")("worlds passk and an agent's detached children", () => {
  it("ends every detached child by the time passk exits", { timeout: 180_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), "worlds-detached-"));
    const pids = join(dir, "pids");
    const agent = join(dir, "agent.mjs");
    writeFileSync(
      agent,
      [
        `import { spawn } from "node:child_process";`,
        `import { appendFileSync } from "node:fs";`,
        `const c = spawn("sleep", ["300"], { detached: true, stdio: "ignore" });`,
        `c.unref();`,
        `appendFileSync(${JSON.stringify(pids)}, c.pid + "\\n");`,
        `console.log("Nothing to change here.");`,
      ].join("\n"),
    );
    const res = await runCli(["passk", "--server", "auto", "--tasks", "examples/quickstart.tasks.yaml", "--runs", "1", "--task", "QS-3", "--task", "QS-5", "--", process.execPath, agent]);
    expect([0, 1, 4], res.stderr).toContain(res.code); // graded, however it went: what matters is what is left running
    const started = readFileSync(pids, "utf8").split("\n").filter(Boolean).map(Number);
    expect(started).toHaveLength(2);
    // Killed before passk exited; only the reaping by their new parent may still be under way.
    expect(await waitUntil(() => started.every((p) => !running(p)), 5_000)).toBe(true);
    expect(res.leftovers).toEqual([]);
  });
});
