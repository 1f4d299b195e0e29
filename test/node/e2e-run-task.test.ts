// runTask, the package's RL episode client, end to end on the real local server with the person and the judge on
// the scripted model: imported from the built library (dist/lib, what `import { runTask } from "worlds"` loads),
// an agent written as a plain function acting through the toolbox and talking to the person until done, its
// error ending the episode at reward 0, a refusal thrown with the server's reason, and the package's export and
// declarations resolved by name from a consumer project under nodenext.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as Lib from "../../src/package/index";
import type { LocalServer } from "../../src/cli/server/local";
import { startScriptedLocal } from "./helpers/scripted-local";
import { ROOT } from "./helpers/cli";

let server: LocalServer;
let lib: typeof Lib;
const tasks = (JSON.parse(readFileSync(join(ROOT, "examples/evals/benchmark.json"), "utf8")) as { tasks: Array<Record<string, unknown>> }).tasks;
const task = tasks[0]!;

let stop: () => Promise<void> = async () => undefined;
beforeAll(async () => {
  lib = (await import(pathToFileURL(join(ROOT, "dist/lib/index.mjs")).href)) as typeof Lib;
  ({ server, stop } = await startScriptedLocal("test/fixtures/person/episode.script.yaml"));
}, 120_000);
afterAll(() => stop());

/** A policy as a user writes one: look the order up, ask for the email, refund once told, say so. */
const careful: Lib.EpisodeAgent = async (messages, toolbox) => {
  const last = messages.at(-1)!.content;
  if (messages.length === 1) {
    const order = (await toolbox.call("orders__get", { order_id: "A-1001" })) as { id: string };
    expect(order.id).toBe("A-1001");
    return "What is the email on the account?";
  }
  if (last.includes("dana@example.com")) {
    expect(await toolbox.call("refunds__create", { charge_id: "ch_2" })).toMatchObject({ charge: "ch_2" });
    return "I have refunded the duplicate charge.";
  }
  return "Could you tell me more?";
};

describe("runTask", () => {
  it("runs one task as an episode: the agent's messages go to the person until done, and the reward comes back", async () => {
    const seen: Lib.EpisodeMessage[][] = [];
    let tools: string[] = [];
    const agent: Lib.EpisodeAgent = (messages, toolbox) => {
      seen.push(messages);
      tools = toolbox.openai_tools().map((t) => t.function.name);
      expect(toolbox.anthropic_tools().map((t) => t.name)).toEqual(tools);
      return careful(messages, toolbox);
    };
    const result = await lib.runTask(task, agent, "openai:person-model", "openai:judge-model", { url: server.url, token: server.token });
    expect(tools).toEqual(["orders__get", "charges__list", "refunds__create", "tasks__create"]);
    expect(seen).toEqual([
      [{ role: "user", content: task.prompt }],
      [
        { role: "user", content: task.prompt },
        { role: "assistant", content: "What is the email on the account?" },
        { role: "user", content: "It's dana@example.com." },
      ],
    ]);
    expect(result).toMatchObject({ slug: "duplicate-charge-refund", reward: 0.8, passed: false, error: null });
    expect(result.warnings[0]).toMatch(/held out/);
    expect(result.criteria.map((c) => [c.id, c.met])).toEqual([
      ["refund-duplicate", true],
      ["no-february-refund", true],
      ["fee-explained", false],
      ["no-fee-refund-record", true],
      ["no-billing-task", true],
    ]);
    expect(result.transcript.at(-1)).toEqual({ role: "user", content: "Thank you!" });
    expect(result.tool_calls.map((c) => c.tool)).toEqual(["orders__get", "refunds__create"]);
  }, 120_000);

  it("ends the episode at reward 0 with the error when the agent throws, and answers a tool's failure to the agent", async () => {
    let failure: unknown;
    const result = await lib.runTask(
      { ...task, split: "train" },
      async (_messages, toolbox) => {
        failure = await toolbox.call("no_such_tool", {});
        throw new Error("policy crashed");
      },
      "openai:person-model",
      "openai:judge-model",
      { url: server.url, token: server.token, purpose: "eval" },
    );
    expect(failure).toMatchObject({ error: { code: expect.any(String) } });
    expect(result).toMatchObject({ reward: 0, passed: false, error: "the agent raised: policy crashed", criteria: [], warnings: [] });
  }, 120_000);

  it("throws the server's reason when it refuses the episode", async () => {
    const own = tasks.find((t) => (t.environment as { kind: string }).kind !== "replay")!;
    const refused = await lib.runTask(own, careful, "openai:person-model", "openai:judge-model", { url: server.url, token: server.token }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(lib.EpisodeClientError);
    expect(refused).toMatchObject({ status: 400, code: "unsupported_environment" });
    const unauthorized = await lib.runTask(task, careful, "openai:person-model", "openai:judge-model", { url: server.url, token: "wrong" }).catch((e: unknown) => e);
    expect(unauthorized).toMatchObject({ status: 401 });
  }, 120_000);

  it("is the package's export by name, with declarations a nodenext project type-checks against", () => {
    const dir = mkdtempSync(join(tmpdir(), "worlds-lib-"));
    try {
      mkdirSync(join(dir, "node_modules"));
      symlinkSync(ROOT, join(dir, "node_modules", "worlds"), "dir");
      writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
      writeFileSync(
        join(dir, "tsconfig.json"),
        JSON.stringify({ compilerOptions: { module: "nodenext", moduleResolution: "nodenext", target: "es2022", strict: true, noEmit: true, types: [], lib: ["es2023", "dom"] }, files: ["consumer.ts"] }),
      );
      writeFileSync(
        join(dir, "consumer.ts"),
        [
          'import { runTask, loadTasks, EpisodeClientError, type EpisodeAgent, type RunTaskResult } from "worlds";',
          'export const train = async () => (await loadTasks("benchmark.json")).filter((t) => t.split === "train");',
          'const agent: EpisodeAgent = async (messages, toolbox) => { await toolbox.call("orders__get", { order_id: "A-1001" }); return messages[0]!.content; };',
          'export const run = (): Promise<RunTaskResult> => runTask({}, agent, "openai:p", "openai:j", { url: "http://x", token: "t" });',
          "export const isError = (e: unknown) => e instanceof EpisodeClientError;",
          "// @ts-expect-error the reward is a number",
          'export const wrong = (r: RunTaskResult): string => r.reward;',
          "",
        ].join("\n"),
      );
      execFileSync(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", join(dir, "tsconfig.json")], { cwd: dir, stdio: "pipe" });
      const names = execFileSync(process.execPath, ["--input-type=module", "-e", 'const m = await import("worlds"); console.log(Object.keys(m).sort().join(","))'], { cwd: dir, encoding: "utf8" });
      expect(names.trim()).toBe("EpisodeClientError,TaskFileError,loadTasks,parseTasks,runTask");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
