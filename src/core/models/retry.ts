// When to try a model call again and how long to wait: 429, 5xx (and Anthropic's 529), timeouts and network
// failures are worth another attempt; a 4xx other than 408/409/429 is the request's fault and never changes.
export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** The first backoff; each later one doubles, up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the call fails with the server's answer. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 4, baseDelayMs: 500, maxDelayMs: 20_000, maxRetryAfterMs: 60_000 };

export function retryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** Retry-After in milliseconds: delta-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(header: string | null, nowMs: number): number | null {
  if (!header) return null;
  const s = header.trim();
  if (/^\d+(\.\d+)?$/.test(s)) return Math.round(Number(s) * 1000);
  const at = Date.parse(s);
  return Number.isFinite(at) ? Math.max(0, at - nowMs) : null;
}

/**
 * The wait before attempt `attempt + 1` (attempt is 1-based): the server's Retry-After when it gave one, else an
 * exponential backoff with full jitter over its upper half, so a storm of clients does not retry in lockstep.
 */
export function backoffMs(policy: RetryPolicy, attempt: number, retryAfter: number | null, random: () => number): number {
  if (retryAfter !== null) return Math.min(retryAfter, policy.maxRetryAfterMs);
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
