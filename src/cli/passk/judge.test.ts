// The judge's flags: `--judge` with or without a model, options that make no sense without it, what is refused
// before any server starts, and a hosted run's judge request. Also the help of the two model commands.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { parseArgs } from "../flags";
import { main } from "../main";
import { hostedJudge, JUDGE_FLAG_DEFS, JUDGE_FLAG_SHAPE, prepareJudge } from "./judge";

const DEFS = { ...JUDGE_FLAG_DEFS, runs: { kind: "value" as const, help: "" } };
const SCHEMA = z.strictObject({ ...JUDGE_FLAG_SHAPE, runs: z.string().optional() });
const parse = (argv: string[]) => parseArgs("passk", argv, DEFS, SCHEMA);

afterEach(() => vi.restoreAllMocks());

describe("judge flags", () => {
  it("takes --judge alone, with a model, or before another flag or '--'", () => {
    expect(parse(["--judge"]).flags.judge).toBe("");
    expect(parse(["--judge", "anthropic:claude-haiku-4-5"]).flags.judge).toBe("anthropic:claude-haiku-4-5");
    expect(parse(["--judge=openai:gpt-4.1"]).flags.judge).toBe("openai:gpt-4.1");
    const before = parse(["--judge", "--runs", "3"]);
    expect([before.flags.judge, before.flags.runs]).toEqual(["", "3"]);
    const dashes = parse(["--judge", "--", "node", "agent.mjs"]);
    expect([dashes.flags.judge, dashes.command]).toEqual(["", ["node", "agent.mjs"]]);
    expect(() => parse(["--judge-budget", "lots"])).toThrow("--judge-budget must be an amount in dollars, like 0.50");
  });

  it("checks the judge before any server: the model name, the key, a priced model under a budget", () => {
    expect(prepareJudge({})).toEqual({ ok: true, prepared: null });
    expect(prepareJudge({ "judge-budget": 1 })).toMatchObject({ ok: false, message: "--judge-budget applies to the policy judge, which is off" });
    expect(prepareJudge({ judge: "gpt-4" }, {})).toMatchObject({ ok: false, message: expect.stringMatching(/^--judge: 'gpt-4' is not provider:model/) });
    const noKey = prepareJudge({ judge: "" }, {});
    expect(noKey).toMatchObject({ ok: false, message: "the judge: no OPENAI_API_KEY in the environment for openai" });
    expect(noKey.ok || noKey.nextAction).toContain("worlds model serve --script FILE");
    expect(prepareJudge({ judge: "openai:my-llama", "judge-budget": 1 }, { OPENAI_BASE_URL: "http://127.0.0.1:1/v1" })).toMatchObject({ ok: false, message: expect.stringContaining("has no price") });
    const ok = prepareJudge({ judge: "", "no-cache": true }, { OPENAI_BASE_URL: "http://127.0.0.1:1/v1" });
    expect(ok.ok && ok.prepared).toMatchObject({ model: { provider: "openai", model: "gpt-4.1-mini" }, budgetDollars: null, cached: false });
  });

  it("builds a hosted run's judge: the policy's text from the tasks file's policy:, never the key", () => {
    const dir = mkdtempSync(join(tmpdir(), "worlds-judge-flags-"));
    writeFileSync(join(dir, "policy.md"), "  Refund a duplicate only once.\n");
    writeFileSync(join(dir, "t.yaml"), "version: 1\nseed: acme-small\npolicy: policy.md\ntasks: []\n");
    expect(hostedJudge({ judge: "", "judge-budget": 0.25 }, join(dir, "t.yaml"))).toEqual({ ok: true, judge: { model: "openai:gpt-4.1-mini", policy: "Refund a duplicate only once.", budget_usd: 0.25, cache: true } });
    expect(hostedJudge({ judge: "", "judge-timeout": 5 }, join(dir, "t.yaml"))).toMatchObject({ ok: false, message: "--judge-timeout does not apply to a hosted run: the server calls the judge with its own settings" });
    writeFileSync(join(dir, "none.yaml"), "version: 1\nseed: acme-small\ntasks: []\n");
    expect(hostedJudge({ judge: "" }, join(dir, "none.yaml"))).toMatchObject({ ok: false, message: expect.stringContaining("the judge needs a policy") });
  });

  it.each([["model", "serve"], ["judge", "check"]])("%s %s: the usage line names every option", async (...argv) => {
    let text = "";
    vi.spyOn(process.stdout, "write").mockImplementation((c: string | Uint8Array) => ((text += String(c)), true));
    expect(await main([...argv, "--help"])).toBe(0);
    const usage = text.slice(0, text.indexOf("\n\n"));
    const options = [...text.slice(text.indexOf("options:")).matchAll(/^ {2}(?:-\w, | {4})--([a-z-]+)/gm)].map((m) => m[1]);
    expect(options.length).toBeGreaterThan(0);
    expect(options.filter((o) => !new RegExp(`--${o}\\b`).test(usage))).toEqual([]);
  });
});
