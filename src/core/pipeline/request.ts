// What POST /admin/runs accepts and what the agent of a hosted run is sent and must answer. Shared by the
// Worker (validation at the boundary) and the CLI (`worlds passk --url ... --agent-url ...` builds the request).
import { z } from "zod";
import type { AgentTask } from "./task";
import type { OpenAiTool } from "../kinds/tools/render";

/** A tools episode's task as the agent receives it (the same JSON a process agent reads on stdin). */
export interface ToolsAgentTask {
  id: string;
  request: string;
  tools: OpenAiTool[];
  /** Earlier calls already in the conversation (the history dial), each with the answer the world gives it. */
  history?: Array<{ name: string; arguments: Record<string, unknown>; result: Record<string, unknown> }>;
}
import { hostedJudgeRequest } from "../policy-judge/hosted";
import { hostedToolsRequest } from "../kinds/tools/run/request";
import { hostedEvalsRequest } from "../kinds/replay/task-format/hosted";
import type { EvalsAgentTask } from "../kinds/replay/task-format/episode";

/** The agent's answer is kept up to this many bytes, as a CLI agent's stdout is. */
export const AGENT_REPLY_LIMIT = 256 * 1024;
export const DEFAULT_RUNS = 3;
export const DEFAULT_CONCURRENCY = 10;
export const DEFAULT_TIMEOUT_S = 300;
/** A queue consumer invocation may take 15 minutes; one agent call must fit in it with the world around it. */
export const MAX_TIMEOUT_S = 600;

const httpUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" });

export const agentEndpoint = z.strictObject({
  url: httpUrl,
  /** Keys the HMAC on every request to the agent (docs/hosted-runs.md). */
  secret: z.string().min(16, "must be at least 16 characters").max(512),
});
export type AgentEndpoint = z.infer<typeof agentEndpoint>;

export const runRequest = z.strictObject({
  /** An account run: a tasks file's YAML text, or an already compiled seed (a bundled name or a document) and rubric. */
  tasks: z
    .union([
      z.string().min(1, "the tasks file is empty"),
      z.strictObject({ seed: z.union([z.string().min(1), z.record(z.string(), z.unknown())]), rubric: z.record(z.string(), z.unknown()) }),
    ])
    .optional(),
  /** A tools run (docs/tools.md): the settings and the tool file, as text. Exactly one of tasks and tools. */
  tools: hostedToolsRequest.optional(),
  /** An evals run (docs/replay.md): a portable task file as text, each task in its replay world. Exactly one of tasks, tools and evals. */
  evals: hostedEvalsRequest.optional(),
  /** The tasks file's name as the user knows it (results, replay lines); default "tasks.yaml". */
  tasks_file: z.string().min(1).max(500).optional(),
  /** Repetitions; default the file's runs:, else 3. */
  runs: z.number().int().min(1).max(100).optional(),
  /** Default the file's mode:, else isolated. */
  mode: z.enum(["isolated", "shift"]).optional(),
  /** Only these tasks (their id in the file or their position), as `--task`. */
  task: z.array(z.string().min(1)).max(1000).optional(),
  agent: agentEndpoint,
  /** Episodes of this run in flight at once. */
  concurrency: z.number().int().min(1).max(100).optional(),
  /** Seconds the agent may take per episode. */
  timeout_s: z.number().int().min(1).max(MAX_TIMEOUT_S).optional(),
  /** A scenario name or document for every world (default: the file's scenario:). */
  scenario: z.union([z.string().min(1), z.record(z.string(), z.unknown()), z.null()]).optional(),
  /** The policy judge for every task (docs/judge.md); its key is the server's secret. */
  judge: hostedJudgeRequest.optional(),
}).superRefine((r, ctx) => {
  const kinds = (["tasks", "tools", "evals"] as const).filter((k) => r[k] !== undefined);
  if (kinds.length !== 1)
    ctx.addIssue({ code: "custom", path: [kinds[1] ?? "tasks"], message: "send either tasks (an account run), tools (a run on your own tools) or evals (a portable task file), exactly one of them" });
  for (const kind of ["tools", "evals"] as const) {
    if (!r[kind]) continue;
    const what = kind === "tools" ? "a tools run" : "an evals run";
    if (r.mode === "shift") ctx.addIssue({ code: "custom", path: ["mode"], message: `${what} is isolated: each task gets its own world` });
    if (r.scenario !== undefined && r.scenario !== null) ctx.addIssue({ code: "custom", path: ["scenario"], message: `scenarios shape the billing and help desk twins; ${what}'s world has neither` });
    if (r.judge) ctx.addIssue({ code: "custom", path: ["judge"], message: `the policy judge reads a support reply against a policy; ${what} is graded ${kind === "tools" ? "by replaying its calls" : "by each task's own grader (its rubric judge is evals.judge)"}` });
  }
});
export type RunRequest = z.infer<typeof runRequest>;

/** The body POSTed to the agent for one episode: an account episode's ticket, or a tools episode's task. */
export type AgentRequestBody = AgentRequestCommon & AgentAssignment;

/** What the agent is asked to do, by the kind of world. */
export type AgentAssignment =
    | {
        kind: "account";
        /** The ticket to work (isolated mode); null in shift mode, where the open tickets on the desk are the work. */
        task: AgentTask | null;
      }
    | {
        kind: "tools";
        /** The task's id, its request, and the tools in OpenAI's format, answered at `world.tools_url` (and MCP). */
        task: ToolsAgentTask;
      }
    | {
        kind: "evals";
        /** The task's slug, its prompt (the person's opening message) and the replay world's tools, answered at `world.tools_url` (and MCP). */
        task: EvalsAgentTask;
      };

interface AgentRequestCommon {
  mode: "isolated" | "shift";
  world: {
    id: string;
    /** Point a Stripe client here (host/port/protocol) with `key` as its API key. */
    stripe_api_base: string;
    key: string;
    /** The help desk (Zendesk's API shape); the same key is its token. */
    zendesk_url: string;
    /** The world's tools over MCP (Streamable HTTP) and as plain JSON (GET list, POST call); `key` as Bearer. */
    mcp_url: string;
    tools_url: string;
    /** The person to talk to (POST <person_url>/respond {said} -> {reply, done}); only when the task has one. */
    person_url?: string;
  };
  run: { id: string; episode: string; repetition: number };
}

export const agentResponse = z.looseObject({ reply: z.string() });
