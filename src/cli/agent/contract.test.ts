import { describe, expect, it } from "vitest";
import { agentEnv } from "./contract";

const world = { id: "w_AAAAAAAAAAAAAAAA", key: "sk_test_key", seed: { name: "s", hash: "h" }, objects: 1, stripe_api_base: "http://127.0.0.1:9", zendesk_url: "http://127.0.0.1:9" };

describe("the agent's environment", () => {
  it("names every surface of the world, each opened by the world's key", () => {
    const env = agentEnv({ ...world, mcp_url: "http://127.0.0.1:9/mcp", tools_url: "http://127.0.0.1:9/tools/v1" }, "http://127.0.0.1:9", null);
    expect(env).toMatchObject({
      STRIPE_API_KEY: "sk_test_key",
      ZENDESK_API_TOKEN: "sk_test_key",
      WORLDS_MCP_URL: "http://127.0.0.1:9/mcp",
      WORLDS_TOOLS_URL: "http://127.0.0.1:9/tools/v1",
      WORLDS_TOOLS_KEY: "sk_test_key",
    });
    expect(env.WORLDS_TASK_JSON).toBeUndefined();
    expect(env.WORLDS_PERSON_URL).toBeUndefined();
  });

  it("names the person only when the world has one", () => {
    const env = agentEnv({ ...world, person_url: "http://127.0.0.1:9/person/v1" }, "http://127.0.0.1:9", '{"id":1}');
    expect(env.WORLDS_PERSON_URL).toBe("http://127.0.0.1:9/person/v1");
  });

  it("derives the tool URLs from the server's when an older server does not name them", () => {
    const env = agentEnv(world, "http://127.0.0.1:9", '{"id":1}');
    expect(env).toMatchObject({ WORLDS_MCP_URL: "http://127.0.0.1:9/mcp", WORLDS_TOOLS_URL: "http://127.0.0.1:9/tools/v1", WORLDS_TASK_JSON: '{"id":1}' });
  });
});
