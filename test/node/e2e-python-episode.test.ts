// The dependency-free Python client (examples/evals/episode_client.py, stdlib only) run with python3 against the
// real local server, the person and the judge on the scripted model: it creates the episode, talks to the person
// through its policy and the toolbox, grades, and prints the reward record. Skipped, saying so, without python3.
import { spawn, spawnSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LocalServer } from "../../src/cli/server/local";
import { startScriptedLocal } from "./helpers/scripted-local";
import { ROOT } from "./helpers/cli";

const python = spawnSync("python3", ["--version"], { encoding: "utf8" }).status === 0;
if (!python) console.warn("e2e-python-episode: python3 is not on PATH; the Python client's test is skipped");

let server: LocalServer;
let stop: () => Promise<void> = async () => undefined;
beforeAll(async () => {
  if (python) ({ server, stop } = await startScriptedLocal("test/fixtures/person/episode.script.yaml"));
}, 120_000);
afterAll(() => stop());

/** Run asynchronously: the scripted model answers from this process, so a blocking spawn would starve it. */
function client(args: string[], env: Record<string, string | undefined> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  // -I: isolated, no site-packages and no user environment, so only the standard library can be imported.
  const child = spawn("python3", ["-I", join(ROOT, "examples/evals/episode_client.py"), ...args], { env: { PATH: process.env.PATH, WORLDS_URL: server.url, WORLDS_TOKEN: server.token, ...env } });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

describe.skipIf(!python)("the Python episode client", () => {
  it("creates an episode, acts through the tools and the person, grades it, and prints the reward record", async () => {
    const r = await client([join(ROOT, "examples/evals/benchmark.json"), "duplicate-charge-refund", "--person", "openai:person-model", "--judge", "openai:judge-model"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/warning: This task is held out/);
    const result = JSON.parse(r.stdout);
    expect(result).toMatchObject({ slug: "duplicate-charge-refund", reward: 0.8, passed: false, error: null });
    expect(result.tool_calls.map((c: { tool: string }) => c.tool)).toEqual(["orders__get", "refunds__create"]);
    expect(result.transcript.slice(1)).toEqual([
      { role: "assistant", content: "What is the email on the account?" },
      { role: "user", content: "It's dana@example.com." },
      { role: "assistant", content: "I have refunded the duplicate charge." },
      { role: "user", content: "Thank you!" },
    ]);
  }, 180_000);

  it("says why when the server refuses, and needs the token", async () => {
    const own = await client([join(ROOT, "examples/evals/benchmark.json"), "game-boots"]);
    const refused = await client([join(ROOT, "examples/evals/benchmark.json"), "duplicate-charge-refund"], { WORLDS_TOKEN: "wrong" });
    expect([refused.code, refused.stderr]).toEqual([1, expect.stringContaining("the server refused the episode: HTTP 401")]);
    expect((await client([join(ROOT, "examples/evals/benchmark.json")], { WORLDS_TOKEN: "" })).stderr).toContain("set WORLDS_TOKEN");
    expect([own.code, own.stderr]).toEqual([1, expect.stringContaining("HTTP 400 unsupported_environment")]);
  }, 180_000);
});
