// Replies can be up to 256 KiB; the results keep an excerpt and the true size.

export const REPLY_EXCERPT_CHARS = 2000;

export function utf8Bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

export function replyExcerpt(reply: string, producedBytes: number | null): { excerpt: string; bytes: number; truncated: boolean } {
  const kept = utf8Bytes(reply);
  const bytes = producedBytes !== null && producedBytes > kept ? producedBytes : kept;
  const points = Array.from(reply); // code points, so a cut never splits a surrogate pair
  const excerpt = points.length > REPLY_EXCERPT_CHARS ? points.slice(0, REPLY_EXCERPT_CHARS).join("") : reply;
  return { excerpt, bytes, truncated: excerpt.length < reply.length || bytes > kept };
}
