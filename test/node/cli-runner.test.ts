// The agent process runner on its own (no server): what reaches the agent, and every way an agent can misbehave.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPLY_LIMIT, runAgent, agentSucceeded } from "../../src/cli/agent/runner";
import { reapRuns, RUN_MARKER } from "../../src/cli/agent/reap";
import { alive, waitUntil } from "./helpers/cli";

const node = (code: string) => [process.execPath, "-e", code];

describe("agent runner", () => {
  it("hands over stdin and env, strips the admin token, and trims stdout into the reply", async () => {
    process.env.WORLDS_TOKEN = "secret-admin-token";
    try {
      const o = await runAgent({
        argv: node(`let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{console.log("  got "+JSON.parse(s).id+" "+process.env.WORLDS_TASK_JSON.length+" "+(process.env.WORLDS_TOKEN??"none")+"\\n\\n");console.error("warn")})`),
        env: { WORLDS_TASK_JSON: JSON.stringify({ id: 7 }) },
        stdin: JSON.stringify({ id: 7 }),
        timeoutMs: 10_000,
      });
      expect(o).toMatchObject({ started: true, exit_code: 0, signal: null, timed_out: false, reply: "got 7 8 none", stderr: "warn\n", reply_truncated: false });
      expect(agentSucceeded(o)).toBe(true);
    } finally {
      delete process.env.WORLDS_TOKEN;
    }
  });

  it("records a crash's exit code and stderr", async () => {
    const o = await runAgent({ argv: node(`console.error("boom");process.exit(3)`), env: {}, stdin: "", timeoutMs: 10_000 });
    expect(o).toMatchObject({ started: true, exit_code: 3, stderr: "boom\n" });
    expect(agentSucceeded(o)).toBe(false);
  });

  it("records a command that does not exist as a spawn failure", async () => {
    const o = await runAgent({ argv: ["/definitely/not/a/command"], env: {}, stdin: "{}", timeoutMs: 10_000 });
    expect(o).toMatchObject({ started: false, exit_code: null, spawn_error: { code: "ENOENT" } });
  });

  it("kills the whole process group on timeout, grandchildren included", async () => {
    const dir = mkdtempSync(join(tmpdir(), "worlds-runner-"));
    const pidFile = join(dir, "pid");
    const t0 = Date.now();
    const o = await runAgent({
      argv: ["sh", "-c", `sleep 60 & echo $! > ${pidFile}; sleep 60`],
      env: {},
      stdin: "",
      timeoutMs: 500,
    });
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(o).toMatchObject({ started: true, timed_out: true, exit_code: null });
    const grandchild = Number(readFileSync(pidFile, "utf8"));
    expect(await waitUntil(() => !alive(grandchild), 3_000)).toBe(true);
  });

  it("keeps reading 10 MB of stdout without stalling, keeping the first 256 KiB", async () => {
    const o = await runAgent({
      argv: node(`const b=Buffer.alloc(1<<20,120);for(let i=0;i<10;i++)process.stdout.write(b);`),
      env: {},
      stdin: "",
      timeoutMs: 20_000,
    });
    expect(o).toMatchObject({ exit_code: 0, timed_out: false, stdout_bytes: 10 * (1 << 20), reply_truncated: true });
    expect(o.reply.length).toBe(REPLY_LIMIT);
  });

  it("does not stall on an agent that ignores stdin and exits at once", async () => {
    const o = await runAgent({ argv: ["true"], env: {}, stdin: "x".repeat(60_000), timeoutMs: 10_000 });
    expect(o).toMatchObject({ started: true, exit_code: 0 });
  });

  // Issue 11 item 5: a child spawned with {detached: true} is in a session and group of its own, so the group kill
  // missed it and `sleep 300` outlived the run.
  describe.runIf(process.platform === "linux")("descendants that left the agent's process group", () => {
    /** Running, not a zombie waiting for its new parent to reap it. */
    const running = (pid: number) => {
      try {
        return !/^\S+ \(.*\) [ZX] /.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
      } catch {
        return false;
      }
    };
    const detach = (cmd: string) => `const c=require("child_process").spawn(${cmd},{detached:true,stdio:"ignore"});c.unref();console.log(c.pid);`;

    it("ends a detached child when the agent exits", async () => {
      const o = await runAgent({ argv: node(detach(`"sleep",["300"]`)), env: {}, stdin: "", timeoutMs: 10_000 });
      expect(o).toMatchObject({ started: true, exit_code: 0 });
      const pid = Number(o.reply);
      expect(pid).toBeGreaterThan(0);
      expect(await waitUntil(() => !running(pid), 5_000)).toBe(true);
    });

    it("ends a detached grandchild of a detached child, and one that replaced its environment", async () => {
      const dir = mkdtempSync(join(tmpdir(), "worlds-runner-"));
      const pids = join(dir, "pids");
      // The detached child starts its own detached child with no environment at all, writes both pids, then waits.
      const inner = `const c=require("child_process").spawn("sleep",["300"],{detached:true,stdio:"ignore",env:{}});require("fs").writeFileSync(${JSON.stringify(pids)},process.pid+" "+c.pid);setInterval(()=>{},1000);`;
      const o = await runAgent({ argv: node(detach(`process.execPath,["-e",${JSON.stringify(inner)}]`) + "setTimeout(()=>{},800);"), env: {}, stdin: "", timeoutMs: 10_000 });
      expect(o).toMatchObject({ started: true, exit_code: 0 });
      const [child, grandchild] = readFileSync(pids, "utf8").split(" ").map(Number);
      expect(await waitUntil(() => !running(child!) && !running(grandchild!), 5_000)).toBe(true);
    });

    it("ends a detached child when the agent times out", async () => {
      const o = await runAgent({ argv: node(detach(`"sleep",["300"]`) + "setInterval(()=>{},1000);"), env: {}, stdin: "", timeoutMs: 1_000 });
      expect(o).toMatchObject({ started: true, timed_out: true });
      const pid = Number(o.reply);
      expect(await waitUntil(() => !running(pid), 5_000)).toBe(true);
    });

    it("reaps several runs in one walk of /proc, each run's marked processes and only those", async () => {
      const start = (marker: string) => spawn("sleep", ["300"], { detached: true, stdio: "ignore", env: { ...process.env, [RUN_MARKER]: marker } });
      const a = start("1-aaaaaaaaaaaaaaaa");
      const b = start("1-bbbbbbbbbbbbbbbb");
      const other = start("1-cccccccccccccccc");
      try {
        expect(await waitUntil(() => running(a.pid!) && running(b.pid!) && running(other.pid!), 5_000)).toBe(true);
        const r = reapRuns([
          { marker: "1-aaaaaaaaaaaaaaaa", root: a.pid! },
          { marker: "1-bbbbbbbbbbbbbbbb", root: b.pid! },
        ]);
        // A killed process can still be listed for a moment before it is a zombie, so a later walk may signal it again.
        expect(r).toBeGreaterThanOrEqual(2);
        expect(await waitUntil(() => !running(a.pid!) && !running(b.pid!), 5_000)).toBe(true);
        expect(running(other.pid!)).toBe(true);
      } finally {
        for (const c of [a, b, other]) c.kill("SIGKILL");
      }
    });

    it("reads no environment in a running agent's session: what runs there is that agent's, reaped with it", async () => {
      // Marked with the reaped run's marker, but leading a session the caller says is a running agent's.
      const start = () => spawn("sleep", ["300"], { detached: true, stdio: "ignore", env: { ...process.env, [RUN_MARKER]: "1-dddddddddddddddd" } });
      const reaped = start();
      const running_ = start();
      try {
        expect(await waitUntil(() => running(reaped.pid!) && running(running_.pid!), 5_000)).toBe(true);
        expect(reapRuns([{ marker: "1-dddddddddddddddd", root: reaped.pid! }], new Set([running_.pid!]))).toBeGreaterThanOrEqual(1);
        expect(await waitUntil(() => !running(reaped.pid!), 5_000)).toBe(true);
        // Killed with it or not at all: a second is ample for a process signalled in the same pass to be a zombie.
        expect(await waitUntil(() => !running(running_.pid!), 1_500)).toBe(false);
      } finally {
        for (const c of [reaped, running_]) c.kill("SIGKILL");
      }
    });

    it("ends the detached children of agents that exit together", async () => {
      const outcomes = await Promise.all(Array.from({ length: 4 }, () => runAgent({ argv: node(detach(`"sleep",["300"]`)), env: {}, stdin: "", timeoutMs: 10_000 })));
      for (const o of outcomes) expect(o).toMatchObject({ started: true, exit_code: 0 });
      const pids = outcomes.map((o) => Number(o.reply));
      expect(await waitUntil(() => pids.every((p) => !running(p)), 5_000)).toBe(true);
    });

    it("hands every agent process its run's marker, and leaves other processes alone", async () => {
      const o = await runAgent({ argv: node(`console.log(process.env.WORLDS_AGENT_RUN)`), env: {}, stdin: "", timeoutMs: 10_000 });
      expect(o.reply).toMatch(/^\d+-[0-9a-f]{16}$/);
      const bystander = spawn("sleep", ["30"], { detached: true, stdio: "ignore" });
      try {
        const again = await runAgent({ argv: node(detach(`"sleep",["300"]`)), env: {}, stdin: "", timeoutMs: 10_000 });
        expect(await waitUntil(() => !running(Number(again.reply)), 5_000)).toBe(true);
        expect(running(bystander.pid!)).toBe(true);
      } finally {
        bystander.kill("SIGKILL");
      }
    });
  });

  it("stops the agent when the run is interrupted", async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 200);
    const o = await runAgent({ argv: ["sleep", "60"], env: {}, stdin: "", timeoutMs: 60_000, signal: ac.signal });
    expect(o).toMatchObject({ started: true, interrupted: true, timed_out: false });
    expect(agentSucceeded(o)).toBe(false);
  });
});
