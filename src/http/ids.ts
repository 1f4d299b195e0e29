// Random ids for things that are not part of a world's deterministic state (worlds, keys, request ids, runs).
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export function randomToken(length: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  let out = "";
  for (const b of bytes) out += ALPHABET[b % 62];
  return out;
}

export const WORLD_ID_LENGTH = 16;
export const newWorldId = () => `w_${randomToken(WORLD_ID_LENGTH)}`;
/** The key carries its world's id so the Worker can route it without a lookup; the secret part is checked by the world. */
export const newWorldKey = (worldId: string) => `sk_test_${worldId.slice(2)}${randomToken(32)}`;
/**
 * The world an idempotent creation request names: its id and key derived from the server's secret and the
 * request's Idempotency-Key, so a retried request reaches the world the first attempt made. Without the secret
 * neither can be guessed from the idempotency key.
 */
export async function worldFromIdempotencyKey(secret: string, idempotencyKey: string): Promise<{ id: string; key: string }> {
  const hmac = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const draw = async (label: string, length: number) => {
    const bytes = new Uint8Array(await crypto.subtle.sign("HMAC", hmac, new TextEncoder().encode(`${label}\n${idempotencyKey}`)));
    let out = "";
    for (const b of bytes.subarray(0, length)) out += ALPHABET[b % 62];
    return out;
  };
  const id = `w_${await draw("world-id", WORLD_ID_LENGTH)}`;
  return { id, key: `sk_test_${id.slice(2)}${await draw("world-key", 32)}` };
}

export const newRequestId = () => `req_${randomToken(14)}`;

export function worldIdFromKey(key: string): string | null {
  const m = /^sk_test_([A-Za-z0-9]{16})[A-Za-z0-9]{32}$/.exec(key);
  return m ? `w_${m[1]}` : null;
}
