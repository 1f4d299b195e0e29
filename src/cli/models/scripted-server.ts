// `worlds model serve`'s server: the runtime-neutral scripted model (core/models/scripted) behind node:http on
// loopback. Tests start it in-process; users start it from the command line to dry-run without a model key.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { MAX_HANG_MS, ScriptedModel, streamChunks, type Received, type Script } from "../../core/models/scripted/index";

/** A request body bigger than this is not something worlds sends a model. */
const MAX_BODY_BYTES = 16 * 1024 * 1024;

export interface ScriptedServer {
  /** e.g. http://127.0.0.1:43123 (no trailing slash). */
  url: string;
  /** OPENAI_BASE_URL / ANTHROPIC_BASE_URL values that point a client here. */
  env: { OPENAI_BASE_URL: string; ANTHROPIC_BASE_URL: string };
  model: ScriptedModel;
  received(): Received[];
  close(): Promise<void>;
}

export async function startScriptedServer(script: Script, opts: { port?: number; host?: string; onReceived?: (r: Received) => void } = {}): Promise<ScriptedServer> {
  const model = new ScriptedModel(script);
  const server: Server = createServer((req, res) => {
    const ctl = new AbortController();
    // The client hung up (its timeout): a hanging or slow rule stops waiting.
    res.on("close", () => ctl.abort());
    readBody(req)
      .then(async (body) => {
        if (body === null) {
          res.writeHead(413, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `request body over ${MAX_BODY_BYTES} bytes` } }));
          return;
        }
        // Header names are the client's: no prototype, so none of them can be anything but an own key.
        const headers = Object.create(null) as Record<string, string>;
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers[k] = v;
        const before = model.received().length;
        const out = await model.handle({ method: req.method ?? "GET", path: req.url ?? "/", headers, body, signal: ctl.signal });
        const after = model.received();
        if (opts.onReceived && after.length > before) opts.onReceived(after[after.length - 1]);
        if (ctl.signal.aborted || res.destroyed) return;
        if (!out.stream) return void res.writeHead(out.status, out.headers).end(out.body);
        res.writeHead(out.status, out.headers);
        res.flushHeaders();
        // Each event written as it comes; a client that drops the stream aborts the signal, which ends the loop.
        for await (const event of streamChunks(out.stream, ctl.signal, MAX_HANG_MS)) {
          if (res.destroyed) break;
          res.write(event);
        }
        if (!res.destroyed) res.end();
      })
      .catch((e: Error) => {
        if (res.headersSent) return void res.destroy();
        if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `scripted server: ${e.message}` } }));
      });
  });
  // Keep-alive sockets of a hung request would hold close() open: close() ends them.
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, opts.host ?? "127.0.0.1", () => resolve());
  });
  const addr = server.address() as AddressInfo;
  const host = addr.family === "IPv6" ? `[${addr.address}]` : addr.address;
  const url = `http://${host}:${addr.port}`;
  let closed: Promise<void> | null = null;
  return {
    url,
    env: { OPENAI_BASE_URL: `${url}/v1`, ANTHROPIC_BASE_URL: url },
    model,
    received: () => model.received(),
    close: () =>
      (closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      })),
  };
}

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) over = true;
      else chunks.push(c);
    });
    req.on("end", () => resolve(over ? null : Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}
