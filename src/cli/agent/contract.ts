// What an agent process is given (docs/agent-contract.md): the task on stdin and in WORLDS_TASK_JSON, the
// world's endpoints and key in the environment.
import type { CreatedWorld } from "../client";

export const TASK_JSON_LIMIT = 64 * 1024;

/** The task as handed to an agent. Mirrors a ticket on the desk; never carries the key or the rubric. */
export interface AgentTask {
  id: number;
  label: string;
  subject: string;
  body: string;
  requester: { name: string; email: string };
  priority: "low" | "normal" | "high" | "urgent";
  tags: string[];
}

export function taskJson(task: AgentTask): string {
  return JSON.stringify({ id: task.id, label: task.label, subject: task.subject, body: task.body, requester: task.requester, priority: task.priority, tags: task.tags });
}

/** The environment names DESIGN.md fixes. `task` is null in shift mode and for `worlds run` (the desk is the input). */
export function agentEnv(world: CreatedWorld, serverUrl: string, task: string | null): Record<string, string> {
  return {
    STRIPE_API_KEY: world.key,
    STRIPE_API_BASE: world.stripe_api_base,
    ZENDESK_URL: world.zendesk_url,
    ZENDESK_API_TOKEN: world.key,
    WORLDS_URL: serverUrl,
    WORLDS_WORLD_ID: world.id,
    ...(task === null ? {} : { WORLDS_TASK_JSON: task }),
  };
}
