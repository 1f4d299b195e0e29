// Canonical JSON (sorted keys, no whitespace) and its SHA-256: the identity of seeds, rubrics and build outputs.
// Uses Web Crypto, present in both Node 20 and the Workers runtime.
export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value, 0));
}

/** Far beyond any document worlds accepts (bodies and files are bounded where they enter); a guard, not a rule. */
const MAX_CANONICAL_DEPTH = 512;

function sortKeys(value: unknown, depth: number): unknown {
  if (depth > MAX_CANONICAL_DEPTH) throw new RangeError(`canonical JSON: the value is nested more than ${MAX_CANONICAL_DEPTH} levels deep`);
  if (Array.isArray(value)) return value.map((v) => sortKeys(v, depth + 1));
  if (value && typeof value === "object") {
    // No prototype: a key such as "__proto__" stays an ordinary key of the copy.
    const out = Object.create(null) as Record<string, unknown>;
    for (const k of Object.keys(value as object).sort()) {
      const v = (value as Record<string, unknown>)[k];
      if (v !== undefined) out[k] = sortKeys(v, depth + 1);
    }
    return out;
  }
  return value;
}

export async function sha256Hex(text: string | Uint8Array): Promise<string> {
  const bytes = typeof text === "string" ? new TextEncoder().encode(text) : text;
  const digest = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Stable pretty JSON for files users commit and diff: sorted keys, two-space indent, trailing newline. */
export function prettyCanonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value, 0), null, 2) + "\n";
}
