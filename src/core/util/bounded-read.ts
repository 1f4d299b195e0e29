// Reading a body that someone else sized: a request to the twin, an agent's answer, a model's answer. The stream
// is read chunk by chunk so a body larger than the bound is never held whole; what happens past the bound is the
// caller's choice: refuse the body (null), or keep its first `limit` bytes.

/** Reads at most `limit` bytes of `body`: past it, "refuse" answers null and "cut" answers the first `limit` bytes. */
export async function readStreamBounded(body: ReadableStream<Uint8Array> | null, limit: number, over: "refuse" | "cut"): Promise<Uint8Array | null> {
  if (!body) return new Uint8Array();
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.byteLength > limit) {
      await reader.cancel().catch(() => undefined);
      if (over === "refuse") return null;
      chunks.push(value.slice(0, limit - size));
      size = limit;
      break;
    }
    chunks.push(value);
    size += value.byteLength;
  }
  if (chunks.length === 1) return chunks[0]!;
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) all.set(c, at), (at += c.byteLength);
  return all;
}
