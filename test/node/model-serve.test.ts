// `worlds model serve`: the real built CLI serving a script on loopback, answered through the model client,
// a hung rule released when the client gives up, the received list without credentials, and bad scripts refused.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ModelClient, parseModelName, resolveEndpoint } from "../../src/core/models/index";
import { killAllStarted, runCli, startCli } from "./helpers/cli";

afterAll(killAllStarted);

const KEY = "sk-never-leaves-this-test-0123456789";

describe("worlds model serve", () => {
  it("answers both wire formats from the script, releases a hung request on the client's timeout, lists what it received", async () => {
    const cli = startCli(["model", "serve", "--script", "test/fixtures/models/basic.script.yaml"]);
    try {
      const out = await cli.waitFor(/ANTHROPIC_BASE_URL=\S+\n/);
      const openaiBase = /OPENAI_BASE_URL=(\S+)/.exec(out)![1];
      const anthropicBase = /ANTHROPIC_BASE_URL=(\S+)/.exec(out)![1];
      const env = { OPENAI_BASE_URL: openaiBase, ANTHROPIC_BASE_URL: anthropicBase, OPENAI_API_KEY: KEY };
      const endpoint = (p: "openai" | "anthropic") => {
        const e = resolveEndpoint(p, env);
        if (!e.ok) throw new Error(e.message);
        return e.endpoint;
      };
      const client = new ModelClient({ endpoints: { openai: endpoint("openai"), anthropic: endpoint("anthropic") }, timeoutMs: 300, retry: { maxAttempts: 1 } });
      const name = (s: string) => (parseModelName(s) as { ok: true; value: never }).value;
      const a = await client.call({ model: name("openai:gpt-4.1-mini"), messages: [{ role: "user", content: "say hello" }] });
      expect(a.ok && a.answer.text).toBe("you said hello");
      const b = await client.call({ model: name("anthropic:claude-haiku-4-5"), messages: [{ role: "user", content: "slow please" }] });
      expect(b.ok && b.answer.text).toBe("took my time");
      const hung = await client.call({ model: name("openai:gpt-4.1-mini"), messages: [{ role: "user", content: "hang on" }] });
      expect(hung).toMatchObject({ ok: false, error: { kind: "timeout" } });
      const list = (await (await fetch(`${openaiBase.replace(/\/v1$/, "")}/_worlds/requests`)).json()) as { requests: { rule: string; credentials: boolean; body: { model: string } }[] };
      expect(list.requests.map((r) => r.rule)).toEqual(["echo", "slow", "hang"]);
      expect(list.requests.map((r) => r.credentials)).toEqual([true, false, true]);
      expect(JSON.stringify(list)).not.toContain(KEY);
      expect(cli.stderr()).toMatch(/#1 POST \/v1\/chat\/completions gpt-4.1-mini -> 200 \(echo\)/);
      cli.signal("SIGINT");
      expect((await cli.exited).code).toBe(0);
    } finally {
      cli.cleanup();
    }
  }, 60_000);

  it("refuses a bad script with every problem and exit 2", async () => {
    const dir = mkdtempSync(join(tmpdir(), "worlds-model-"));
    const file = join(dir, "bad.yaml");
    writeFileSync(file, "version: 1\nrules:\n  - when: { model: gpt, tool: true }\n    respond: {}\n");
    const res = await runCli(["model", "serve", "--script", file]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("the script has 2 problems");
    expect(res.stderr).toContain('rules[0].when: Unrecognized key: "tool"');
    expect(res.stderr).toContain("rules[0].respond: needs one of text, json, raw, tool_calls, refuse, error, hang");
    expect((await runCli(["model", "serve"])).stderr).toContain("--script is required");
  }, 60_000);
});
