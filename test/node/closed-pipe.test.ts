// A command whose reader closes the pipe (`worlds tasks import … | head`) ends as it would have, without a stack
// trace: the real built CLI, its stdout and stderr pipes closed before it writes a line.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, ROOT } from "./helpers/cli";

/** Runs the CLI with both output pipes closed at once: its exit code and what a stderr we kept would have shown. */
function runIntoClosedPipes(args: string[]): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout.destroy();
  child.stderr.destroy();
  return new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
}

/** The same with stdout closed and stderr read: a crash would print its stack trace there. */
function runIntoClosedStdout(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout.destroy();
  let stderr = "";
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stderr })));
}

describe("a closed pipe", () => {
  it("tasks import still writes its file and exits 0, with nothing on stderr but its own lines", async () => {
    const into = join(mkdtempSync(join(tmpdir(), "worlds-pipe-")), "tasks.yaml");
    const r = await runIntoClosedStdout(["tasks", "import", "examples/help-desk-exports/zendesk-tickets.csv", "--into", into, "--seed", "acme-small"]);
    expect(r.stderr).not.toMatch(/EPIPE|at .*\.mjs:\d+/);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(into) && readFileSync(into, "utf8")).toContain("tasks:");
  });

  it("ends every kind of command quietly with its own exit code: validate 0, help 0, a bad flag 2", async () => {
    expect(await runIntoClosedPipes(["tasks", "validate", "examples/quickstart.tasks.yaml"])).toEqual({ code: 0, signal: null });
    expect(await runIntoClosedPipes(["help"])).toEqual({ code: 0, signal: null });
    expect(await runIntoClosedPipes(["tasks", "validate", "--no-such-flag"])).toEqual({ code: 2, signal: null });
    const v = await runIntoClosedStdout(["tasks", "validate", "examples/quickstart.tasks.yaml"]);
    expect(v).toEqual({ code: 0, stderr: "" });
  });
});
