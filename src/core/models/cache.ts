// The response cache: an answer is stored under the hash of the canonical request (provider, base URL and the
// exact body sent), so rerunning the same judgement costs nothing and gives the same answer. Only answers that
// were read and validated are stored: a malformed answer is retried next time, not replayed forever. The store
// is the caller's: files under .worlds/ for the CLI, R2 for hosted runs, a Map in tests.
import { canonicalJson, sha256Hex } from "../util/canonical";

/** Bump when what is stored changes meaning; old entries are then simply never hit. */
export const CACHE_FORMAT = 1;

export interface CachedAnswer {
  format: typeof CACHE_FORMAT;
  provider: string;
  model: string;
  /** The provider's response body, exactly as it arrived. */
  body: string;
  stored_at: string;
}

export interface ModelCache {
  get(key: string): Promise<CachedAnswer | null>;
  put(key: string, value: CachedAnswer): Promise<void>;
}

export async function cacheKey(provider: string, baseUrl: string, body: unknown): Promise<string> {
  return sha256Hex(canonicalJson({ format: CACHE_FORMAT, provider, base_url: baseUrl, body }));
}

export function isCachedAnswer(v: unknown): v is CachedAnswer {
  if (!v || typeof v !== "object") return false;
  const o = v as Record<string, unknown>;
  return o.format === CACHE_FORMAT && typeof o.body === "string" && typeof o.provider === "string" && typeof o.model === "string";
}

export class MemoryCache implements ModelCache {
  readonly entries = new Map<string, CachedAnswer>();
  async get(key: string): Promise<CachedAnswer | null> {
    return this.entries.get(key) ?? null;
  }
  async put(key: string, value: CachedAnswer): Promise<void> {
    this.entries.set(key, value);
  }
}
