import { readStreamBounded } from "../core/util/bounded-read";

// Request size bounds. The twin's APIs take small bodies; admin routes carry whole seeds and tasks files.
export const TWIN_BODY_LIMIT = 1024 * 1024;
export const ADMIN_BODY_LIMIT = 32 * 1024 * 1024;

/** Reads a body's bytes up to `limit`; returns null when it is larger (the caller answers 413 in its own shape). */
export async function readBytesLimited(req: Request, limit: number): Promise<Uint8Array | null> {
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > limit) return null;
  // A declared length within the limit is read in one call: the runtime holds the connection to that length,
  // and a chunk loop in JavaScript cost a tenth of a small tool call's CPU (bench/tools-call.mjs). The size is
  // checked again, for a Request built in-process whose header and body disagree. Before `req.body`, whose
  // getter makes the stream object this read never needs.
  if (Number.isFinite(declared)) {
    const bytes = new Uint8Array(await req.arrayBuffer());
    return bytes.byteLength > limit ? null : bytes;
  }
  return readStreamBounded(req.body, limit, "refuse");
}

const utf8 = new TextDecoder("utf-8");

/** The same, decoded as UTF-8 text. */
export async function readBodyLimited(req: Request, limit: number): Promise<string | null> {
  const bytes = await readBytesLimited(req, limit);
  return bytes === null ? null : utf8.decode(bytes);
}
