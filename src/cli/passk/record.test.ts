import { describe, expect, it } from "vitest";
import { buildResults } from "../../core/results/build";
import { renderText } from "../../core/report/text";
import { syntheticInput } from "../../core/results/synthetic.fixture";
import type { AgentOutcome } from "../agent/runner";
import { episodeRecord } from "./record";

const notStarted: AgentOutcome = {
  started: false,
  spawn_error: { code: "ENOENT", message: "spawn /no/such/agent ENOENT" },
  exit_code: null,
  signal: null,
  timed_out: false,
  interrupted: false,
  duration_ms: 3,
  reply: "",
  stdout_bytes: 0,
  reply_truncated: false,
  stderr: "",
  stderr_bytes: 0,
  stderr_truncated: false,
};

describe("episodeRecord", () => {
  it("records a command that could not start with its cause once, so no reader doubles the wording", () => {
    const record = episodeRecord(1, [1], "isolated", { world: null, create_error: null, agent: notStarted, diff: null, trace: null, traffic: null, inspect_error: null, inspected: null, destroyed: true, destroy_error: null });
    expect(record.infra_error).toEqual({ stage: "agent_start", message: "ENOENT: spawn /no/such/agent ENOENT" });

    const input = syntheticInput({ runs_requested: 1, run_checks: [] });
    input.episodes = [1, 2, 3, 4, 5].map((t) => ({ ...record, tickets: [t] }));
    const results = buildResults(input);
    expect(results.reason).toBe("the agent command could not be started (ENOENT: spawn /no/such/agent ENOENT)");
    expect(renderText(results)).not.toMatch(/could not be started \(could not be started/);
  });
});
