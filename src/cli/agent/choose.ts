// Which agent a run drives, from its flags: a command after `--`, the built-in model agent (`--model`), or an HTTP
// agent of the hosted contract called by this command (`--agent-url`). Exactly one; shared by `family gate`,
// `passk --family` and `evals run`.
import { FlagError } from "../flags";
import { shellLine } from "../../core/results/shell";
import type { PassRate } from "../../core/families/schema";
import type { InProcessAgent } from "../episode/in-process";
import { httpAgent } from "../families/http-agent";
import { setupModelAgent, type ModelAgent } from "./model-agent";
import { strayModelFlag, type ModelAgentFlags } from "./model-flags";

export interface ChosenAgent {
  argv: string[];
  model: ModelAgent | null;
  http: InProcessAgent | null;
  /** Your own agent function, called in process (`evals run --agent FILE:export`). */
  code: InProcessAgent | null;
  solver: PassRate["solver"];
  label: string;
}

export type AgentChoiceFlags = ModelAgentFlags & { "agent-url"?: string; concurrency?: number };

/** The agent, or the exit code after saying why it cannot run (`sub` names the command in messages). */
export function agentFor(sub: string, f: AgentChoiceFlags, command: string[] | null, runPrefix = "run", env: NodeJS.ProcessEnv = process.env): ChosenAgent | number {
  const stray = strayModelFlag(f);
  if (stray) throw new FlagError(sub, `--${stray} applies to the built-in model agent: add --model P:M (or drop it).`);
  const named = [f.model !== undefined, !!command?.length, f["agent-url"] !== undefined].filter(Boolean).length;
  if (named > 1) throw new FlagError(sub, "--model, --agent-url and an agent command after '--' each name an agent; pick one.");
  if (named === 0) throw new FlagError(sub, "no agent: put its command after '--' (e.g. -- node examples/agents/careful.mjs), or use --model P:M or --agent-url URL");
  const fail = (message: string) => (process.stderr.write(`worlds ${sub}: ${message}\n`), 2);
  if (f.model !== undefined) {
    const set = setupModelAgent({ ...f, model: f.model }, { concurrency: f.concurrency ?? 2 });
    if (!set.ok) return fail(`${set.message}\nnext: ${set.nextAction}`);
    return { argv: set.agent.label, model: set.agent, http: null, code: null, solver: "model", label: f.model };
  }
  if (f["agent-url"] !== undefined) {
    const secret = env.WORLDS_AGENT_SECRET ?? "";
    if (secret.length < 16) return fail("--agent-url needs WORLDS_AGENT_SECRET (at least 16 characters; it signs every request to the agent)\nnext: WORLDS_AGENT_SECRET=$(openssl rand -hex 16) and the same secret in your agent");
    const http = httpAgent(f["agent-url"], secret, `${runPrefix}_${Date.now().toString(36)}`);
    return { argv: http.label, model: null, http, code: null, solver: "agent-url", label: f["agent-url"] };
  }
  return { argv: command!, model: null, http: null, code: null, solver: "command", label: shellLine(command!) };
}
