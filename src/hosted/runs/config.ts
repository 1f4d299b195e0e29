// Queue facts the consumer must agree with wrangler.toml about.

/** wrangler.toml [[queues.consumers]] episodes: max_retries. A message is delivered at most this + 1 times. */
export const EPISODE_MAX_RETRIES = 3;
export const EPISODE_MAX_DELIVERIES = EPISODE_MAX_RETRIES + 1;
export const EPISODES_QUEUE = "episodes";
export const EPISODES_DLQ = "episodes-dlq";

/** Exponential backoff for transient failures: 1, 2, 4... seconds, capped. */
export function backoffSeconds(attempts: number): number {
  return Math.min(300, 2 ** Math.max(0, attempts - 1));
}

/** How long to wait before trying again when the run already has `concurrency` episodes in flight. */
export const DEFER_SECONDS = 1;

/** A claim older than the agent's timeout plus this is presumed dead (its consumer was killed) and may be taken over. */
export const CLAIM_GRACE_MS = 120_000;

/** A run stuck in "finishing" this long (its finisher was killed) may be finished by another delivery. */
export const FINISH_LEASE_MS = 120_000;

/** Largest episode record kept inline in D1 (values are capped at 2 MB); larger ones go to R2. */
export const INLINE_RECORD_LIMIT = 1_000_000;
