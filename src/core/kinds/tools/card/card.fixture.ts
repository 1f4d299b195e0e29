// A realistic tools run folder's contents for the card's tests: the faults dial at 0, 1 and 2 and the history dial
// at 0 and 600 tokens on a five-tool set, three repetitions, the agent worse with every planned fault, and text an
// agent or a tool file might hold that must stay text (markup, pipes, backticks). Test-only.
import type { EpisodeTrace, ToolsRunRecord } from "./record";

export const EVIL = `<script>alert("x")</script> | \`tick\` ${"`".repeat(3)}`;

const arm = (dial: string, level: number, label: string, n: number, request = (i: number) => `Refund order K3X9QZ${i}: amount 12.5, reason "late".`) =>
  Array.from({ length: n }, (_, i) => ({ id: `${dial}-${level}-t${i + 1}`, arm: `${dial}-${level}`, dial: { name: dial, level, label }, request: request(i + 1), intents: false }));

export function fixtureRecord(over: Partial<ToolsRunRecord> = {}): ToolsRunRecord {
  const tasks = [...arm("faults", 0, "0", 2), ...arm("faults", 1, "1", 2), ...arm("faults", 2, "2", 2, (i) => (i === 1 ? `Refund ${EVIL}: amount 12.5.` : `Refund order Q${i}: amount 3.`)), ...arm("history", 0, "0 tokens", 2), ...arm("history", 600, "600 tokens", 2)];
  const settings = { format: "auto", read: ["get_order"], write: [], intents: {}, flows: [], arms: null, measure: { preset: "custom", dials: ["faults", "history"], controls: false }, tasks_per_arm: 2, seed: 7, clock: "2026-09-15T12:00:00Z" };
  return {
    version: 1,
    file: "tools.json",
    sha256: "b".repeat(64),
    format: "openai",
    set: { name: "acme", tools: 5 },
    settings_sha256: "c".repeat(64),
    settings,
    seed: 7,
    agent: "openai:planner",
    runs: 3,
    episodes: { kept: 30, total: 30 },
    dollars: 0.0123,
    budget_dollars: null,
    tasks,
    ...over,
  };
}

const ok = (name: string, args: Record<string, unknown>) => ({ name, status: 200, arguments: JSON.stringify(args), response: JSON.stringify({ ok: true, result: { id: "rec_1", status: "done" } }) });
const fault = (name: string, args: Record<string, unknown>) => ({ name, status: 503, arguments: JSON.stringify(args), response: JSON.stringify({ error: { code: "unavailable", message: "The service is unavailable; try again." } }) });

/** Every task three times: faults-0 and history-0 always pass, faults-1 passes once in six, faults-2 never, history-600 four in six. */
export function fixtureEpisodes(r: ToolsRunRecord = fixtureRecord()): EpisodeTrace[] {
  const out: EpisodeTrace[] = [];
  for (let run = 1; run <= r.runs; run++)
    for (const [i, t] of r.tasks.entries()) {
      const args = { order_id: `K3X9QZ${i}`, amount: 12.5, reason: "late" };
      const pass = t.arm === "faults-1" ? run === 1 && i % 2 === 0 : t.arm === "faults-2" ? false : t.arm === "history-600" ? run !== 3 : true;
      const calls = t.arm.startsWith("faults-") && t.arm !== "faults-0" ? [fault("refund_order", args), ...(pass ? [ok("refund_order", args)] : [])] : [ok("refund_order", args)];
      const reply = pass ? "Done: refunded 12.5 on the order." : t.id === "faults-2-t1" ? `It failed: ${EVIL}\nI gave up.` : "The refund service was unavailable, so I stopped.";
      out.push({ run, task: t.id, verdict: pass ? "passed" : "wrong_state", calls, reply });
    }
  return out;
}
