// The local server answers uncompressed. Miniflare compresses like Cloudflare's edge, but inside the one
// process that also runs every world, and on loopback that only costs CPU at both ends: the twin's 100-invoice
// list ran at half the rate compressed, and a crash test's admin calls (diffs, traces) paid it per episode.
// "identity" is the one Content-Encoding the runtime's compression step leaves alone; clients read it as none.
// Deployed, COMPRESSION is unset: the edge compresses outside the Worker and remote clients save bandwidth.
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";

export const localEncoding: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  if (c.env.COMPRESSION !== "off" || c.res.headers.has("content-encoding")) return;
  try {
    c.res.headers.set("content-encoding", "identity");
  } catch {
    // A response whose headers are immutable (one passed through from a fetch): copy it. Rare, and costlier.
    const res = new Response(c.res.body, c.res);
    res.headers.set("content-encoding", "identity");
    c.res = res;
  }
};
