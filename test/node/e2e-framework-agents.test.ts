// The framework agents in examples/agents/frameworks/ end to end, unchanged but for the environment: each under
// `worlds passk --server auto`, its model the scripted one (no key, no network), its tools the world's MCP
// endpoint, in the framework's default model API and in its other one, streamed and not. The agents on the bare
// model SDKs (openai, @anthropic-ai/sdk) run their own tool loops, the Anthropic one over Messages. Each must be graded
// right on the duplicate-refund ticket, and the scripted server must have seen the API and the streaming the
// mode asks for (every case names its own model id, so the cases can share the server and run side by side).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScriptedServer } from "../../src/cli/models/scripted-server";
import { killAllStarted, ROOT, runCli } from "./helpers/cli";
import { startScriptedModel } from "./helpers/scripted-local";
import { assertValidResults } from "./helpers/validate-results";

type Api = "chat" | "responses" | "messages";
interface Case {
  agent: "ai-sdk" | "openai-agents" | "langgraph" | "openai-sdk" | "anthropic-sdk";
  api: Api;
  stream: boolean;
}

const PATH: Record<Api, string> = { chat: "/v1/chat/completions", responses: "/v1/responses", messages: "/v1/messages" };
// Each framework's default API first (the Responses API for the AI SDK and the Agents SDK, Chat Completions for
// LangChain), then its other one.
const CASES: Case[] = (
  [
    ["ai-sdk", ["responses", "chat"]],
    ["openai-agents", ["responses", "chat"]],
    ["langgraph", ["chat", "responses"]],
    ["openai-sdk", ["responses", "chat"]],
    ["anthropic-sdk", ["messages"]],
  ] as const
).flatMap(([agent, apis]) => apis.flatMap((api) => [false, true].map((stream) => ({ agent, api, stream }))));

let model: ScriptedServer;
beforeAll(async () => {
  model = await startScriptedModel("test/fixtures/models/frameworks.script.yaml");
});
afterAll(async () => {
  killAllStarted();
  await model?.close();
});

const modelId = (c: Case) => `fw-${c.agent}-${c.api}${c.stream ? "-stream" : ""}`;

async function passk(c: Case): Promise<void> {
  const cwd = mkdtempSync(join(tmpdir(), "worlds-fw-"));
  const res = await runCli(
    ["passk", "--tasks", join(ROOT, "examples/agents/selftest.tasks.yaml"), "--task", "SELF-1", "--server", "auto", "--json", "--no-cache", "--", "node", join(ROOT, `examples/agents/frameworks/${c.agent}.mjs`)],
    { cwd, env: { ...model.env, OPENAI_API_KEY: undefined, ANTHROPIC_API_KEY: undefined, OPENAI_MODEL: modelId(c), ANTHROPIC_MODEL: modelId(c), AGENT_API: c.api, AGENT_STREAM: c.stream ? "1" : "0" }, timeoutMs: 120_000 },
  );
  expect(res.code, `${modelId(c)}: ${res.stderr}`).toBe(0);
  const doc = JSON.parse(res.stdout) as { status: string; runs: { worlds: { task: string; verdict: string; reply: { excerpt: string } | null }[] }[] };
  assertValidResults(doc);
  expect(doc.runs[0].worlds.map((w) => [w.task, w.verdict])).toEqual([["SELF-1", "passed"]]);
  expect(doc.runs[0].worlds[0].reply?.excerpt).toContain("refunded the duplicate September charge of $99.00");
  const mine = model.received().filter((r) => r.model === modelId(c));
  expect(mine.map((r) => r.rule)).toEqual(["find-customer", "list-charges", "refund-duplicate", "refunded"]);
  expect(new Set(mine.map((r) => r.path))).toEqual(new Set([PATH[c.api]]));
  expect(new Set(mine.map((r) => (r.body as { stream?: boolean }).stream === true))).toEqual(new Set([c.stream]));
  // The world's tools reached the model through the framework's MCP client.
  expect(mine[0].tools).toEqual(expect.arrayContaining(["find_customers", "list_charges", "refund_charge"]));
}

describe("framework agents under passk against the scripted model", () => {
  // Two at a time: each case starts its own local server, and the machine is shared.
  for (let i = 0; i < CASES.length; i += 2) {
    const pair = CASES.slice(i, i + 2);
    it(pair.map((c) => `${c.agent} over ${c.api}${c.stream ? ", streamed" : ""}`).join("; "), async () => {
      await Promise.all(pair.map(passk));
    }, 240_000);
  }
});
