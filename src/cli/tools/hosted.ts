// `worlds tools run --url URL --agent-url AGENT_URL`: a hosted tools run. The settings and tool file are read and
// checked here first (the same refusals as a local run), then sent as text, since the server reads no files;
// the server generates the same tasks, runs each against the HTTP agent from its queue, and this command follows.
import { readFileSync } from "node:fs";
import type { RunRequest } from "../../core/pipeline/index";
import { postAndFollow, type FollowOptions } from "../hosted/submit";
import type { LoadedTools } from "./load";

export interface HostedToolsOptions extends FollowOptions {
  tools: LoadedTools;
  agentSecret: string;
  runs?: number;
  task?: string[];
  timeoutS?: number;
}

export function hostedToolsRequest(o: Pick<HostedToolsOptions, "tools" | "agentUrl" | "agentSecret" | "runs" | "task" | "concurrency" | "timeoutS">): RunRequest {
  return {
    tools: { config: readFileSync(o.tools.configPath, "utf8"), file: readFileSync(o.tools.filePath, "utf8"), config_file: o.tools.configPath },
    runs: o.runs,
    task: o.task?.length ? o.task : undefined,
    agent: { url: o.agentUrl, secret: o.agentSecret },
    concurrency: o.concurrency,
    timeout_s: o.timeoutS,
  };
}

export function runHostedTools(o: HostedToolsOptions): Promise<number> {
  return postAndFollow(o, hostedToolsRequest(o), "tools run");
}
