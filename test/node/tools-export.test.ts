// `worlds tools export --to promptfoo|inspect` through the real CLI: the generated tasks, read back from what was
// written, in the documented shapes (promptfoo's config, test case and assertion fields; Inspect's Sample), the
// same tasks and ids as a run, the same bytes twice, errors that name the file. When promptfoo can be installed
// from the npm registry into a temporary folder, `promptfoo validate config` must accept the file too.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { ROOT, runCli } from "./helpers/cli";
import { promptfooConfigSchema } from "../../src/core/kinds/tools/export/promptfoo";
import { inspectSampleSchema } from "../../src/core/kinds/tools/export/inspect";

let dir: string;
const INIT = ["tools", "init", "--own-file", "tools.json", "--own-name", "acme", "--own-read", "get_order", "--own-read", "search_orders", "--own-read", "list_channels"];
const rows = (file: string) => readFileSync(join(dir, "worlds", "tasks", file), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as { id: string; arm: string; request: string; expected: { calls: Array<{ name: string }> }; world: { definitions: Array<{ name: string }> } });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "worlds-tools-export-"));
  cpSync(join(ROOT, "test", "fixtures", "tools", "orders.openai.json"), join(dir, "tools.json"));
  const init = await runCli(INIT, { cwd: dir });
  expect(init.code, init.stderr).toBe(0);
  expect((await runCli(["tools", "generate"], { cwd: dir })).code).toBe(0);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("tools export --to promptfoo", () => {
  it("one test case per task in promptfoo's documented fields: the conversation, the task's block, the tool-call assertions", async () => {
    const res = await runCli(["tools", "export", "--to", "promptfoo"], { cwd: dir });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain("ok  wrote 20 tasks to worlds/promptfooconfig.yaml as promptfoo test cases");
    const text = readFileSync(join(dir, "worlds", "promptfooconfig.yaml"), "utf8");
    const doc = promptfooConfigSchema.parse(parseYaml(text));
    const tasks = [...rows("call.jsonl"), ...rows("read-then-call.jsonl")];
    expect(doc.prompts).toEqual(["{{ messages | dump }}"]);
    expect(doc.providers).toEqual(["openai:chat:gpt-4.1-mini"]);
    expect(doc.tests.map((t) => t.metadata.worlds_task)).toEqual(tasks.map((t) => t.id));
    for (const [i, test] of doc.tests.entries()) {
      const task = tasks[i];
      expect(test.vars.messages[1]).toEqual({ role: "user", content: task.request });
      expect(test.provider.config.tools.map((t) => t.function.name)).toEqual(task.world.definitions.map((d) => d.name));
      expect(test.metadata.expected_calls).toEqual(task.expected.calls);
      // The first turn: a call task's write; a read-then-call task's read (the write waits for its answer).
      expect(test.assert).toEqual([{ type: "is-valid-openai-tools-call" }, { type: "tool-call-f1", value: [task.expected.calls[0].name] }]);
    }
    const again = await runCli(["tools", "export", "--to", "promptfoo", "--out", "again.yaml", "--provider", "anthropic:messages:claude-sonnet-4-5"], { cwd: dir });
    expect(again.code, again.stderr).toBe(0);
    expect(readFileSync(join(dir, "again.yaml"), "utf8")).toBe(text.replaceAll("openai:chat:gpt-4.1-mini", "anthropic:messages:claude-sonnet-4-5"));
  });

  it("on the history dial the earlier calls and their answers follow the request, as OpenAI chat messages", async () => {
    const sub = join(dir, "history");
    mkdirSync(sub);
    cpSync(join(dir, "tools.json"), join(sub, "tools.json"));
    expect((await runCli([...INIT, "--preset", "custom", "--dial", "history"], { cwd: sub })).code).toBe(0);
    const res = await runCli(["tools", "export", "--to", "promptfoo"], { cwd: sub });
    expect(res.code, res.stderr).toBe(0);
    const doc = promptfooConfigSchema.parse(parseYaml(readFileSync(join(sub, "worlds", "promptfooconfig.yaml"), "utf8")));
    const top = doc.tests.filter((t) => t.metadata.dial === "history 2400 tokens");
    expect(top.length).toBeGreaterThan(0);
    for (const t of top) {
      const [system, user, assistant, ...answers] = t.vars.messages;
      expect(system.role).toBe("system");
      expect(user.role).toBe("user");
      expect(assistant).toMatchObject({ role: "assistant", content: null });
      const calls = (assistant as { tool_calls: Array<{ id: string }> }).tool_calls;
      expect(answers.map((a) => (a as { tool_call_id: string }).tool_call_id)).toEqual(calls.map((c) => c.id));
    }
    expect(doc.tests.filter((t) => t.metadata.dial === "history 0 tokens").every((t) => t.vars.messages.length === 2)).toBe(true);
    // Inspect: the same conversation as its chat messages (arguments as objects), the request alone at level 0.
    expect((await runCli(["tools", "export", "--to", "inspect"], { cwd: sub })).code).toBe(0);
    const samples = readFileSync(join(sub, "worlds", "inspect-tasks.jsonl"), "utf8").trimEnd().split("\n").map((l) => inspectSampleSchema.parse(JSON.parse(l)));
    for (const s of samples.filter((x) => x.metadata.dial?.label === "2400 tokens")) {
      expect(Array.isArray(s.input)).toBe(true);
      const [user, assistant] = s.input as Array<{ role: string; tool_calls?: Array<{ arguments: unknown }> }>;
      expect(user.role).toBe("user");
      expect(typeof assistant.tool_calls![0].arguments).toBe("object");
    }
    expect(samples.filter((x) => x.metadata.dial?.label === "0 tokens").every((x) => typeof x.input === "string")).toBe(true);
  });

  it("errors name the file: a path that cannot be written, --provider without promptfoo", async () => {
    mkdirSync(join(dir, "taken"));
    const res = await runCli(["tools", "export", "--to", "promptfoo", "--out", "taken"], { cwd: dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^worlds tools export: taken: cannot write it \(EISDIR\)/);
    const bad = await runCli(["tools", "export", "--to", "inspect", "--provider", "x"], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--provider applies to --to promptfoo");
  });

  it("promptfoo itself accepts the config (promptfoo validate config), when it can be installed", { timeout: 900_000 }, async (ctx) => {
    const bin = promptfooBin();
    if ("skip" in bin) return ctx.skip(bin.skip);
    const r = spawnSync(bin.path, ["validate", "config", "-c", join(dir, "worlds", "promptfooconfig.yaml")], {
      cwd: dir,
      encoding: "utf8",
      timeout: 300_000,
      env: { ...process.env, PROMPTFOO_DISABLE_TELEMETRY: "1", PROMPTFOO_DISABLE_UPDATE: "1", PROMPTFOO_CONFIG_DIR: join(dir, ".promptfoo"), NO_COLOR: "1" },
    });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout + r.stderr).toContain("Configuration is valid.");
  });
});

describe("tools export --to inspect", () => {
  it("one Sample a line: id, input, target and metadata, the request as input and the expected calls as target", async () => {
    const res = await runCli(["tools", "export", "--to", "inspect"], { cwd: dir });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain('json_dataset("worlds/inspect-tasks.jsonl")');
    const text = readFileSync(join(dir, "worlds", "inspect-tasks.jsonl"), "utf8");
    const samples = text.trimEnd().split("\n").map((l) => inspectSampleSchema.parse(JSON.parse(l)));
    const tasks = [...rows("call.jsonl"), ...rows("read-then-call.jsonl")];
    expect(samples.map((s) => s.id)).toEqual(tasks.map((t) => t.id));
    for (const [i, s] of samples.entries()) {
      expect(s.input).toBe(tasks[i].request);
      expect(s.target.split("\n").map((l) => l.slice(0, l.indexOf("(")))).toEqual(tasks[i].expected.calls.map((c) => c.name));
      expect(s.metadata.world).toEqual(tasks[i].world);
    }
    await runCli(["tools", "export", "--to", "inspect"], { cwd: dir });
    expect(readFileSync(join(dir, "worlds", "inspect-tasks.jsonl"), "utf8")).toBe(text);
  });
});

/**
 * promptfoo's CLI: $WORLDS_PROMPTFOO, or a pinned version installed into a temporary folder. The install is asked
 * for (WORLDS_PROMPTFOO_INSTALL=1) rather than made by default: it is 1.4 GB and npm peaked at 2.3 GB of memory
 * doing it, 2.5 minutes with a warm cache, which a CI machine running the rest of the suite beside it cannot spare.
 */
function promptfooBin(): { path: string } | { skip: string } {
  if (process.env.WORLDS_PROMPTFOO) return { path: process.env.WORLDS_PROMPTFOO };
  const version = "0.121.20";
  const folder = join(tmpdir(), `worlds-promptfoo-${version}`);
  const bin = join(folder, "node_modules", ".bin", "promptfoo");
  if (existsSync(bin)) return { path: bin };
  if (process.env.WORLDS_PROMPTFOO_INSTALL !== "1")
    return { skip: `promptfoo is not installed here: set WORLDS_PROMPTFOO=<its bin> or WORLDS_PROMPTFOO_INSTALL=1 (installs promptfoo@${version} into ${folder}); the shape check above still ran` };
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, "package.json"), JSON.stringify({ name: "worlds-export-check", private: true }));
  const r = spawnSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", `promptfoo@${version}`], { cwd: folder, encoding: "utf8", timeout: 600_000 });
  if (r.status !== 0 || !existsSync(bin)) return { skip: `promptfoo ${version} could not be installed from the npm registry (${(r.stderr || r.error?.message || "no output").trim().split("\n").slice(-1)[0]}); the shape check above still ran` };
  return { path: bin };
}
