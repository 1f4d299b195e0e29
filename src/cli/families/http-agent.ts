// `--agent-url URL` for family runs: the HTTP agent of a hosted run, called by this command instead of the
// server. Each episode is one signed POST of the hosted contract (docs/hosted-runs.md: {task, mode, world, run},
// HMAC with $WORLDS_AGENT_SECRET) and its {reply} is the episode's reply, so an agent already deployed for hosted
// runs is gated unchanged. It runs as an in-process agent: the same records as a process agent.
import { callAgent } from "../../hosted/runs/agent";
import type { AgentAssignment, AgentRequestBody } from "../../core/pipeline/request";
import type { InProcessAgent, InProcessOutcome } from "../episode/in-process";

export function httpAgent(url: string, secret: string, runId: string): InProcessAgent {
  const seen = new Map<string, number>();
  return {
    label: ["--agent-url", url],
    async run(ctx): Promise<InProcessOutcome> {
      const task = ctx.taskJson ? (JSON.parse(ctx.taskJson) as Record<string, unknown>) : null;
      // A tools world's tier hands over a request; an account world's, a ticket.
      const assignment = (task && typeof task.request === "string" ? { kind: "tools", task } : { kind: "account", task }) as AgentAssignment;
      const key = String(task?.label ?? task?.id ?? "");
      const repetition = (seen.get(key) ?? 0) + 1;
      seen.set(key, repetition);
      const w = ctx.world;
      const body: AgentRequestBody = {
        ...assignment,
        mode: "isolated",
        world: { id: w.id, stripe_api_base: w.stripe_api_base, key: w.key, zendesk_url: w.zendesk_url, mcp_url: w.mcp_url ?? `${ctx.serverUrl}/mcp`, tools_url: w.tools_url ?? `${ctx.serverUrl}/tools/v1`, ...(w.person_url ? { person_url: w.person_url } : {}) },
        run: { id: runId, episode: `${runId}:${w.id}`, repetition },
      };
      const res = await callAgent({ url, secret, timeoutMs: ctx.timeoutMs, episode: body.run.episode, attempt: 1 }, body);
      const reply = res.ok ? res.reply : "";
      return {
        started: true,
        spawn_error: null,
        exit_code: res.ok ? 0 : res.timedOut ? null : 1,
        signal: null,
        timed_out: !res.ok && res.timedOut,
        interrupted: false,
        duration_ms: res.durationMs,
        reply,
        stdout_bytes: res.ok ? (res.replyBytes ?? new TextEncoder().encode(reply).byteLength) : 0,
        reply_truncated: res.ok && res.replyBytes !== null,
        stderr: "",
        stderr_bytes: 0,
        stderr_truncated: false,
        in_process: { error: res.ok ? null : `the HTTP agent failed: ${res.error}`, turn_limit_reached: false, notes: [] },
      };
    },
  };
}
