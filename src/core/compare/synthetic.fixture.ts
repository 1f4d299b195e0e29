// Results documents whose differences are known, for tests of the comparison, the gates and their reports: each
// task is written as its marks (✓ passed, ✗ failed, ! infrastructure error, one per run), and the document is
// built by the real results builder, so it is exactly what passk would have written. Test-only.
import { buildResults } from "../results/build";
import type { EpisodeRecordInput } from "../results/input";
import type { Results } from "../results/types";
import type { RubricDocument } from "../rubric/schema";

export interface SyntheticTask {
  id: string;
  /** One mark per run: ✓, ✗ or !. */
  marks: string;
  /** Cents graded wrong in each failed run (default 0). */
  cents?: number;
  /** The expected line (default "refund $10.00"). */
  expected?: string;
}

export function syntheticRun(tasks: SyntheticTask[], opts: { mode?: "isolated" | "shift"; tasksHash?: string } = {}): Results {
  const runs = Math.max(...tasks.map((t) => [...t.marks].length));
  const rubric: RubricDocument = {
    version: 1,
    seed: { name: "acme-small", hash: "a".repeat(64) },
    currency: "usd",
    mode: opts.mode ?? "isolated",
    invariants: [],
    budget: null,
    plan_names: [],
    tickets: tasks.map((t, i) => ({
      id: i + 1,
      label: t.id,
      subject: `Synthetic task ${t.id}`,
      requester: { email: `c${i + 1}@example.com`, name: `Customer ${i + 1}` },
      customer: `cus_${i + 1}`,
      candidates: [],
      decoys: [],
      terminal_status: ["solved" as const],
      priority: "normal" as const,
      tags: [],
      claim: "refund",
      expect: { action: "refund", amount: 1000, target: `ch_${i + 1}`, target_any: [`ch_${i + 1}`], price: null, line: t.expected ?? "refund $10.00" },
      trap_class: null,
    })),
  };
  const episodes: EpisodeRecordInput[] = [];
  for (let run = 1; run <= runs; run++) {
    tasks.forEach((t, i) => {
      const mark = [...t.marks][run - 1];
      if (mark === undefined) return;
      const ticket = i + 1;
      if (mark === "!") {
        episodes.push({ run, world: null, tickets: [ticket], agent: null, infra_error: { stage: "world_create", message: "POST /admin/worlds answered 503" } });
        return;
      }
      const passed = mark === "✓";
      episodes.push({
        run,
        world: `w_${run}_${ticket}`,
        tickets: [ticket],
        grades: [{ ticket, verdict: passed ? "passed" : t.cents ? "wrong_amount" : "missed", dollars_wrong_cents: passed ? 0 : (t.cents ?? 0), reply: "Done." }],
        agent: { exit_code: 0, signal: null, timed_out: false, start_error: null, duration_ms: 1000 },
        traffic: { billing_requests: 2, desk_requests: 1, unsupported: [] },
        checks: [],
      });
    });
  }
  return buildResults({
    mode: opts.mode ?? "isolated",
    runs_requested: runs,
    tasks: { file: "worlds/tasks.yaml", hashes: { file: opts.tasksHash ?? "f".repeat(64), seed: "a".repeat(64), rubric: "b".repeat(64) }, pack: null },
    rubric,
    invocation: { agent_command: ["node", "agent.mjs"], server_flags: ["--server", "auto"], replay_flags: [] },
    episodes,
    run_checks: [],
  });
}

/** n tasks that all end the same way in every run. */
export function uniform(prefix: string, n: number, marks: string): SyntheticTask[] {
  return Array.from({ length: n }, (_, i) => ({ id: `${prefix}-${i + 1}`, marks }));
}
