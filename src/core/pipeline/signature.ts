// How the server signs what it POSTs to a run's agent (docs/hosted-runs.md): hex HMAC-SHA256, keyed with the
// run's agent secret, over "<timestamp>.<raw body>", timestamp in Unix seconds. The agent recomputes it and
// refuses stale timestamps, so a captured request cannot be replayed later. Web Crypto: Node and Workers alike.
export const SIGNATURE_HEADER = "x-worlds-signature";
export const TIMESTAMP_HEADER = "x-worlds-timestamp";
/** The episode the request is for: stable across redeliveries, so an agent can deduplicate its own work. */
export const EPISODE_HEADER = "x-worlds-episode";
export const ATTEMPT_HEADER = "x-worlds-attempt";
export const SIGNATURE_PREFIX = "sha256=";
/** How old a signed timestamp may be before an agent should refuse it. */
export const AGENT_SIGNATURE_WINDOW_S = 5 * 60;

const enc = new TextEncoder();

async function hmacHex(secret: string, message: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", enc.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, enc.encode(message)));
  return [...mac].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export async function signAgentRequest(secret: string, body: string, nowSeconds: number): Promise<Record<string, string>> {
  const ts = String(Math.floor(nowSeconds));
  return { [TIMESTAMP_HEADER]: ts, [SIGNATURE_HEADER]: SIGNATURE_PREFIX + (await hmacHex(secret, `${ts}.${body}`)) };
}

export type AgentSignatureCheck = { ok: true } | { ok: false; reason: string };

/** What an agent runs on each request (also used by the tests' agents). */
export async function verifyAgentRequest(secret: string, header: (name: string) => string | null | undefined, body: string, nowSeconds: number): Promise<AgentSignatureCheck> {
  const ts = header(TIMESTAMP_HEADER);
  const sig = header(SIGNATURE_HEADER);
  if (!ts || !sig) return { ok: false, reason: `missing ${TIMESTAMP_HEADER} or ${SIGNATURE_HEADER}` };
  if (!/^\d+$/.test(ts)) return { ok: false, reason: `${TIMESTAMP_HEADER} is not Unix seconds` };
  if (Math.abs(nowSeconds - Number(ts)) > AGENT_SIGNATURE_WINDOW_S) return { ok: false, reason: "timestamp is outside the 5-minute window" };
  const expected = SIGNATURE_PREFIX + (await hmacHex(secret, `${ts}.${body}`));
  return sameBytes(expected, sig.trim().toLowerCase()) ? { ok: true } : { ok: false, reason: "signature does not match" };
}

function sameBytes(a: string, b: string): boolean {
  const ea = enc.encode(a);
  const eb = enc.encode(b);
  let diff = ea.length ^ eb.length;
  for (let i = 0; i < Math.max(ea.length, eb.length); i++) diff |= (ea[i] ?? 0) ^ (eb[i] ?? 0);
  return diff === 0;
}
