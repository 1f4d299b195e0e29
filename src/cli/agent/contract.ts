// What an agent process is given (docs/agent-contract.md): the task on stdin and in WORLDS_TASK_JSON, the
// world's endpoints and key in the environment. The task's shape and bytes are core/pipeline/task.ts (shared with
// hosted runs); this file is the Node side: the environment a process is started with.
import type { CreatedWorld } from "../client";

/** The environment names DESIGN.md fixes. `task` is null in shift mode and for `worlds run` (the desk is the input). */
export function agentEnv(world: CreatedWorld, serverUrl: string, task: string | null): Record<string, string> {
  return {
    STRIPE_API_KEY: world.key,
    STRIPE_API_BASE: world.stripe_api_base,
    ZENDESK_URL: world.zendesk_url,
    ZENDESK_API_TOKEN: world.key,
    WORLDS_MCP_URL: world.mcp_url ?? `${serverUrl}/mcp`,
    WORLDS_TOOLS_URL: world.tools_url ?? `${serverUrl}/tools/v1`,
    WORLDS_TOOLS_KEY: world.key,
    // Only a world with a person: its absence tells the agent there is nobody to talk to.
    ...(world.person_url ? { WORLDS_PERSON_URL: world.person_url } : {}),
    WORLDS_URL: serverUrl,
    WORLDS_WORLD_ID: world.id,
    ...(task === null ? {} : { WORLDS_TASK_JSON: task }),
  };
}
