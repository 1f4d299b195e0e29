// The loopback surface an agent reaches an environment of your own through: its refusals (a wrong key, a
// conversation already over, a body too large, a route it does not serve) and what an environment that breaks
// mid-trial looks like from the agent's side and the grader's. Real processes: the example environment
// (test/fixtures/evals/game-env.mjs) and a broken one written into a temp dir.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CreatedWorld } from "../client";
import { EnvironmentError } from "./env-process";
import { OwnEnvironments } from "./environment";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const GAME = `${JSON.stringify(process.execPath)} ${JSON.stringify(join(ROOT, "test", "fixtures", "evals", "game-env.mjs"))}`;
const TASK = { slug: "game-boots", prompt: "Build the game.", environment: { kind: "game-workspace", template: "platformer" }, grader: { kind: "play-check" } };

// Starts well, then dies on its first call.
const CRASHES = `
import { createInterface } from "node:readline";
for await (const line of createInterface({ input: process.stdin })) {
  const req = JSON.parse(line);
  if (req.op === "start") process.stdout.write(JSON.stringify({ tools: [{ name: "build", description: "Build.", inputSchema: { type: "object" } }] }) + "\\n");
  else { process.stderr.write("out of memory\\n"); process.exit(9); }
}
`;

let dir: string;
let crashes: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "worlds-own-env-"));
  writeFileSync(join(dir, "crashes.mjs"), CRASHES);
  crashes = `${JSON.stringify(process.execPath)} ${JSON.stringify(join(dir, "crashes.mjs"))}`;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function call(url: string, key: string | null, init: { method?: string; body?: string } = {}): Promise<{ status: number; body: { error?: { code: string; message: string } } & Record<string, unknown> }> {
  const res = await fetch(url, { method: init.method ?? "GET", body: init.body, headers: { "content-type": "application/json", ...(key ? { authorization: `Bearer ${key}` } : {}) } });
  return { status: res.status, body: (await res.json()) as { error?: { code: string; message: string } } };
}

async function withEnvironments(cmd: string, use: (envs: OwnEnvironments) => Promise<void>): Promise<void> {
  const envs = new OwnEnvironments(cmd);
  await envs.listen();
  try {
    await use(envs);
  } finally {
    await envs.close();
  }
}

describe("the surface of an environment of your own", () => {
  it("refuses a missing or wrong key (401), and the key of an ended world", async () => {
    await withEnvironments(GAME, async (envs) => {
      const w: CreatedWorld = await envs.createWorld(TASK);
      expect((await call(`${w.tools_url}/list`, w.key)).status).toBe(200);
      for (const key of [null, "own_0123", `${w.key}x`]) {
        const r = await call(`${w.tools_url}/list`, key);
        expect(r.status).toBe(401);
        expect(r.body.error?.code).toBe("unauthorized");
      }
      await envs.endWorld(w.id);
      expect(envs.stateOf(w.id)).toEqual({ state: { builds: 0 }, error: null });
      expect((await call(`${w.tools_url}/list`, w.key)).status).toBe(401);
    });
  }, 60_000);

  it("keeps each world's key to its own world", async () => {
    await withEnvironments(GAME, async (envs) => {
      const a = await envs.createWorld(TASK);
      const b = await envs.createWorld(TASK);
      expect((await call(`${a.tools_url}/call`, a.key, { method: "POST", body: JSON.stringify({ name: "build", arguments: {} }) })).body).toEqual({ built: 1, files: ["index.html", "main.js"] });
      await envs.endWorld(a.id);
      await envs.endWorld(b.id);
      expect(envs.stateOf(a.id).state).toEqual({ builds: 1 });
      expect(envs.stateOf(b.id).state).toEqual({ builds: 0 });
    });
  }, 60_000);

  it("answers 409 to a person's turn after the environment said the conversation is done", async () => {
    await withEnvironments(GAME, async (envs) => {
      const w = await envs.createWorld(TASK);
      await call(`${w.tools_url}/call`, w.key, { method: "POST", body: JSON.stringify({ name: "build" }) });
      expect((await call(`${w.person_url}/respond`, w.key, { method: "POST", body: JSON.stringify({ said: "Built it." }) })).body).toEqual({ reply: "It runs, thanks!", done: true });
      const again = await call(`${w.person_url}/respond`, w.key, { method: "POST", body: JSON.stringify({ said: "Anything else?" }) });
      expect(again.status).toBe(409);
      expect(again.body.error?.code).toBe("conversation_over");
      const convo = await call(`${w.person_url}/conversation`, w.key);
      expect(convo.body).toEqual({ turns: [{ role: "person", text: "Please build the game and tell me when it runs." }, { role: "agent", text: "Built it." }, { role: "person", text: "It runs, thanks!" }], done: true });
    });
  }, 60_000);

  it("answers 413 to a body over 1 MiB, 400 to a body that is not a JSON object, 404 to MCP", async () => {
    await withEnvironments(GAME, async (envs) => {
      const w = await envs.createWorld(TASK);
      const big = await call(`${w.tools_url}/call`, w.key, { method: "POST", body: JSON.stringify({ name: "build", arguments: { pad: "x".repeat(1024 * 1024 + 10) } }) });
      expect(big.status).toBe(413);
      expect(big.body.error?.code).toBe("too_large");
      for (const body of ["[1, 2]", "{not json", JSON.stringify({ arguments: {} })]) {
        const r = await call(`${w.tools_url}/call`, w.key, { method: "POST", body });
        expect(r.status, body).toBe(400);
        expect(r.body.error?.code).toBe("invalid_request");
      }
      // Hostile bodies: a prototype key, and nesting far past the bound; refused before the environment sees them.
      const deep = `{"name":"build","arguments":${"[".repeat(10_000)}${"]".repeat(10_000)}}`;
      for (const body of ['{"name":"build","arguments":{"__proto__":{"polluted":true}}}', deep]) {
        const r = await call(`${w.tools_url}/call`, w.key, { method: "POST", body });
        expect(r.status, body.slice(0, 60)).toBe(400);
        expect(r.body.error?.message).toContain("refused");
      }
      const long = await call(`${w.person_url}/respond`, w.key, { method: "POST", body: JSON.stringify({ said: "y".repeat(32_769) }) });
      expect(long.status).toBe(400);
      expect((await call(`${w.tools_url}/list?format=xml`, w.key)).status).toBe(400);
      expect(w.mcp_url).toMatch(/\/mcp$/);
      const mcp = await call(w.mcp_url!, w.key, { method: "POST", body: "{}" });
      expect(mcp.status).toBe(404);
      expect(mcp.body.error?.message).toContain("not MCP");
      // The environment is still in step after every refusal: none of them reached it.
      expect((await call(`${w.tools_url}/call`, w.key, { method: "POST", body: JSON.stringify({ name: "build" }) })).body).toMatchObject({ built: 1 });
    });
  }, 60_000);

  it("a tool the environment refuses is the agent's 400 tool_error, kept in the trace", async () => {
    await withEnvironments(GAME, async (envs) => {
      const w = await envs.createWorld(TASK);
      const r = await call(`${w.tools_url}/call`, w.key, { method: "POST", body: JSON.stringify({ name: "deploy", arguments: { to: "prod" } }) });
      expect(r).toEqual({ status: 400, body: { error: { code: "tool_error", message: "no tool deploy" } } });
      const { trace } = await envs.contents(w.id);
      expect(trace.map((t) => [t.service, t.path, t.status, t.request_body])).toEqual([["tools", "deploy", 400, '{"to":"prod"}']]);
    });
  }, 60_000);

  it("an environment that crashes mid-trial is the agent's 502 environment_error, and the grader is told its state is unknown", async () => {
    await withEnvironments(crashes, async (envs) => {
      const w = await envs.createWorld(TASK);
      const r = await call(`${w.tools_url}/call`, w.key, { method: "POST", body: JSON.stringify({ name: "build" }) });
      expect(r.status).toBe(502);
      expect(r.body.error).toEqual({ code: "environment_error", message: `${crashes} exited 9: out of memory` });
      const turn = await call(`${w.person_url}/respond`, w.key, { method: "POST", body: JSON.stringify({ said: "hello" }) });
      expect(turn.status).toBe(502);
      await envs.endWorld(w.id);
      expect(envs.stateOf(w.id)).toEqual({ state: null, error: `${crashes} exited 9: out of memory` });
    });
  }, 60_000);

  it("an environment that cannot start makes createWorld reject with its reason, leaving no world", async () => {
    await withEnvironments("worlds-no-such-environment-command", async (envs) => {
      const e = await envs.createWorld(TASK).then(
        () => null,
        (x: unknown) => x as Error,
      );
      expect(e).toBeInstanceOf(EnvironmentError);
      expect(e?.message).toMatch(/^worlds-no-such-environment-command exited 127: .*not found/);
      expect(envs.stateOf("own_1").error).toBe("the episode's environment was not ended");
      await expect(envs.contents("own_1")).rejects.toThrow("no environment own_1");
    });
  }, 60_000);
});
