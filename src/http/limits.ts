// Request size bounds. The twin's APIs take small bodies; admin routes carry whole seeds and tasks files.
export const TWIN_BODY_LIMIT = 1024 * 1024;
export const ADMIN_BODY_LIMIT = 32 * 1024 * 1024;

/** Reads a body up to `limit` bytes; returns null when it is larger (the caller answers 413 in its own shape). */
export async function readBodyLimited(req: Request, limit: number): Promise<string | null> {
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > limit) return null;
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let off = 0;
  for (const c of chunks) all.set(c, off), (off += c.byteLength);
  return new TextDecoder("utf-8").decode(all);
}
