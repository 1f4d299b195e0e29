import type { AgentOutcome } from "../agent/runner";

/** One phrase for how an agent process ended. */
export function describeOutcome(o: AgentOutcome): string {
  const secs = `${(o.duration_ms / 1000).toFixed(1)} s`;
  if (!o.started) return o.spawn_error ? `could not be started (${o.spawn_error.code}: ${o.spawn_error.message})` : "not started (interrupted)";
  if (o.timed_out) return `timed out after ${secs}; its process group was killed`;
  if (o.interrupted) return `stopped by the interrupt after ${secs}`;
  if (o.signal) return `killed by ${o.signal} after ${secs}`;
  return `exited ${o.exit_code} after ${secs}`;
}
