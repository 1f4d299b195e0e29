// The options the spec names that worlds' tools commands do not build are refused, not accepted and ignored:
// doctor's --offline (doctor never needs a server) and --show-command, and card's --compare published (no card is
// published on a team's own tools). Each refusal is one line a user can act on, exit 2, and nothing is written.
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, runCli } from "./helpers/cli";

let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "worlds-tools-flags-"));
  cpSync(join(ROOT, "test", "fixtures", "tools", "memory.mcp.json"), join(dir, "tools.mcp.json"));
  const init = await runCli(["tools", "init", "--own-file", "tools.mcp.json"], { cwd: dir });
  expect(init.code, init.stderr).toBe(0);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("tools: options that would do nothing are refused", () => {
  for (const flag of ["--offline", "--show-command"]) {
    it(`doctor ${flag}: unknown option, and doctor's help does not offer it`, async () => {
      const r = await runCli(["tools", "doctor", flag], { cwd: dir });
      expect(r.code).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toBe(`worlds tools doctor: unknown option '${flag}'.\nRun 'worlds tools doctor --help' for its options.\n`);
      const help = await runCli(["tools", "doctor", "--help"], { cwd: dir });
      expect(help.code).toBe(0);
      expect(help.stdout).not.toContain(flag);
    });
  }

  it("doctor without them still reads the settings (the refusal is the flag's, not the command's)", async () => {
    const r = await runCli(["tools", "doctor"], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^ok {3}worlds\/tools\.yaml: tasks on your tools \(tools\.mcp\)/);
  });

  it("card --compare published: one line saying it takes a run's folder and why there is no published card, nothing written", async () => {
    const r = await runCli(["tools", "card", "--compare", "published"], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      "worlds tools card: --compare takes another run's folder: no card is published on your tools, and the card already says none of its figures reads against the published ones (different tasks)\n",
    );
    expect(existsSync(join(dir, "worlds", "runs"))).toBe(false);
  });
});
