// Signature checks, each exactly as its provider signs (see docs/webhooks.md). A delivery that fails any
// check is refused before anything is parsed or stored.
import { constantTimeEqual, hmac, toBase64, toHex } from "./crypto";

export const PROVIDERS = ["zendesk", "intercom", "front"] as const;
export type Provider = (typeof PROVIDERS)[number];

/** How far a signed timestamp may be from the server's clock before the delivery counts as a replay. */
export const FRESHNESS_WINDOW_MS = 5 * 60 * 1000;

export type Verification = { ok: true } | { ok: false; reason: string };

export type HeaderGetter = (name: string) => string | null;

export async function verifySignature(provider: Provider, secret: string, header: HeaderGetter, rawBody: string, nowMs: number): Promise<Verification> {
  switch (provider) {
    case "zendesk":
      return verifyZendesk(secret, header, rawBody, nowMs);
    case "intercom":
      return verifyIntercom(secret, header, rawBody);
    case "front":
      return verifyFront(secret, header, rawBody, nowMs);
  }
}

/** Zendesk: base64 HMAC-SHA256 over timestamp + raw body; the timestamp is an ISO-8601 string. */
async function verifyZendesk(secret: string, header: HeaderGetter, rawBody: string, nowMs: number): Promise<Verification> {
  const signature = header("x-zendesk-webhook-signature");
  const timestamp = header("x-zendesk-webhook-signature-timestamp");
  if (!signature || !timestamp) return { ok: false, reason: "missing X-Zendesk-Webhook-Signature or X-Zendesk-Webhook-Signature-Timestamp" };
  const at = Date.parse(timestamp);
  if (!Number.isFinite(at)) return { ok: false, reason: "signature timestamp is not an ISO-8601 time" };
  if (Math.abs(nowMs - at) > FRESHNESS_WINDOW_MS) return { ok: false, reason: "signature timestamp is outside the 5-minute window" };
  const expected = toBase64(await hmac("SHA-256", secret, timestamp + rawBody));
  return constantTimeEqual(expected, signature.trim()) ? { ok: true } : { ok: false, reason: "signature does not match" };
}

/** Intercom: X-Hub-Signature is "sha1=" + hex HMAC-SHA1 of the raw body; no timestamp, so replays are caught by event id. */
async function verifyIntercom(secret: string, header: HeaderGetter, rawBody: string): Promise<Verification> {
  const signature = header("x-hub-signature");
  if (!signature) return { ok: false, reason: "missing X-Hub-Signature" };
  const expected = "sha1=" + toHex(await hmac("SHA-1", secret, rawBody));
  return constantTimeEqual(expected, signature.trim().toLowerCase()) ? { ok: true } : { ok: false, reason: "signature does not match" };
}

/** Front application webhooks: base64 HMAC-SHA256 over "<timestamp ms>:" + raw body. */
async function verifyFront(secret: string, header: HeaderGetter, rawBody: string, nowMs: number): Promise<Verification> {
  const signature = header("x-front-signature");
  const timestamp = header("x-front-request-timestamp");
  if (!signature || !timestamp) return { ok: false, reason: "missing X-Front-Signature or X-Front-Request-Timestamp" };
  const at = Number(timestamp);
  if (!Number.isFinite(at)) return { ok: false, reason: "X-Front-Request-Timestamp is not milliseconds since the epoch" };
  if (Math.abs(nowMs - at) > FRESHNESS_WINDOW_MS) return { ok: false, reason: "signature timestamp is outside the 5-minute window" };
  const expected = toBase64(await hmac("SHA-256", secret, `${timestamp}:${rawBody}`));
  return constantTimeEqual(expected, signature.trim()) ? { ok: true } : { ok: false, reason: "signature does not match" };
}

/** Signs a body as the provider would; used by tests and by `docs/webhooks.md`'s curl recipes. */
export async function signAs(provider: Provider, secret: string, rawBody: string, nowMs: number): Promise<Record<string, string>> {
  switch (provider) {
    case "zendesk": {
      const ts = new Date(nowMs).toISOString().replace(/\.\d{3}Z$/, "Z");
      return { "x-zendesk-webhook-signature": toBase64(await hmac("SHA-256", secret, ts + rawBody)), "x-zendesk-webhook-signature-timestamp": ts };
    }
    case "intercom":
      return { "x-hub-signature": "sha1=" + toHex(await hmac("SHA-1", secret, rawBody)) };
    case "front": {
      const ts = String(nowMs);
      return { "x-front-signature": toBase64(await hmac("SHA-256", secret, `${ts}:${rawBody}`)), "x-front-request-timestamp": ts };
    }
  }
}
