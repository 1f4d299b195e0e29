// `--agent FILE:FN` is found before any world is made: a module named as the document writes it (no extension),
// a missing export or file, and a spec that is not FILE:FN each answer in one line.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseAgentSpec, setupCodeAgent } from "./code-agent";

const FIXTURES = join(__dirname, "..", "..", "..", "test", "fixtures", "evals");

describe("--agent FILE:FN", () => {
  it("loads the module, with or without its extension, and labels the agent for replay lines", async () => {
    const bare = await setupCodeAgent("handle-agent:handle", FIXTURES);
    expect(bare.ok && bare.agent.label).toEqual(["--agent", "handle-agent:handle"]);
    expect((await setupCodeAgent("handle-agent.mjs:crash", FIXTURES)).ok).toBe(true);
  });

  it("says what is wrong with a spec, a file or an export", async () => {
    expect(parseAgentSpec("handle-agent.mjs")).toMatch(/is not FILE:function/);
    expect(parseAgentSpec("a.mjs:not-a-name")).toMatch(/'not-a-name' is not a function name/);
    expect(await setupCodeAgent("handle-agent.mjs:nope", FIXTURES)).toEqual({ ok: false, message: "--agent handle-agent.mjs:nope: handle-agent.mjs has no function 'nope' (its functions: crash, handle)" });
    const missing = await setupCodeAgent("no_agent:handle", FIXTURES);
    expect(missing.ok || missing.message).toMatch(/no such file .*no_agent \(nor \.mjs, \.js\)$/);
    const python = await setupCodeAgent("play-check.py:handle", FIXTURES);
    expect(python.ok || python.message).toMatch(/no such file|a JavaScript module/);
  });
});
