// The CLI's HTTP transport to a worlds server: node:http(s) with keep-alive. Node's fetch cost the client about
// 1.1 ms of CPU per request against 0.5 ms here (measured against /health on the local server), and a crash test
// makes two admin requests per episode on the same cores as the agents and the server.
//
// Keep-alive has one trap: a server closes a connection that sat idle (workerd after 5 s, sending no Keep-Alive
// hint), and a request sent on it as the close crosses it fails with ECONNRESET. Under `passk` a world's socket
// sits idle while its agent works, so that race made infrastructure errors that moved with machine load. Two
// defences: a kept socket is used again only if its previous request started less than MAX_IDLE_MS ago (checked
// as the request is about to be written; see refuseIfStale for why from the request's start), and a reset that
// reaches a socket before any answer is retried on a fresh connection when repeating the request is harmless
// (see TransportRequest.retrySafe).
//
// A busy local server has a second way to drop a request: workerd closes a connection it has not read about
// 15 s after accepting it (see LOCAL_MAX_CONNECTIONS). The cap keeps that to the connections of one long turn
// of its event loop (a cold isolate's first seeding on a starved machine), and the retry covers those.
import http from "node:http";
import https from "node:https";
import type { Duplex } from "node:stream";

export interface TransportResponse {
  status: number;
  ok: boolean;
  text(): string;
  /** Throws SyntaxError when the body is not JSON. */
  json(): unknown;
}

export interface TransportRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** How long the server has to answer, from when the request is handed its connection (each attempt). */
  timeoutMs: number;
  signal?: AbortSignal;
  /**
   * Whether sending the request twice has the effect of sending it once, so a reset connection may be retried
   * even though the server may have read it: true for GET/HEAD/PUT/DELETE/OPTIONS unless set; a POST only
   * when the server dedups it (an Idempotency-Key it honours). A request on a socket the pool discarded as stale
   * was provably never sent and is retried whatever this says.
   */
  retrySafe?: boolean;
}

/**
 * The longest a kept connection may sit idle and still be used. workerd closes idle connections after 5 s and
 * Node's http server after 5 s; this stays well under both, with room for a loaded server that is slow to read
 * the request it was sent. A fresh loopback connection costs about a tenth of a millisecond.
 */
export const MAX_IDLE_MS = 2_000;
/** Retries after a reset before any answer (the server may have read those requests). */
const MAX_RETRIES = 2;
/**
 * Stale sockets passed over for one request. Nothing was sent on them, so they cost no retry; each is destroyed,
 * so the pool runs out of them (three in a row were seen under load here), and this only bounds the loop.
 */
const MAX_REFUSED = 256;
const IDEMPOTENT = new Set(["GET", "HEAD", "PUT", "DELETE", "OPTIONS"]);
const RESET_CODES = new Set(["ECONNRESET", "EPIPE"]);

/** When the latest request on each socket was handed it (before it was written, so at or before the server read it). */
const lastRequest = new WeakMap<Duplex, number>();
/** Requests whose socket was refused as stale before a byte was written to it. */
const unsent = new WeakSet<http.ClientRequest>();

/**
 * Runs as the request is handed its socket, synchronously before its first byte is written. The socket's idle
 * time as the server counts it (from the end of the previous answer) is at most the time since the previous
 * request was handed the socket: measured from there, the check holds even when this process stalled for seconds (a fork
 * under load took 0.9 s here) between the answer arriving and being read, which an idle timer or a clock started
 * on reading the answer does not see.
 */
function refuseIfStale(req: http.ClientRequest, socket: Duplex, handedAt: number): void {
  const previous = lastRequest.get(socket);
  lastRequest.set(socket, handedAt);
  if (!req.reusedSocket || previous === undefined || performance.now() - previous <= MAX_IDLE_MS) return;
  unsent.add(req);
  socket.destroy(); // the request sees the socket close (ECONNRESET) with nothing written
}

/**
 * The most connections open at once to one plain-http server; more requests wait in this process for one of them.
 * Plain http is a local server, workerd (`worlds serve`, `--server auto`, `wrangler dev`), and workerd closes a
 * connection whose request it has not read 15 s after accepting it. It reads at most 16 ready sockets per turn of
 * its event loop and runs the work they bring before it looks again, so with 100 connections open at a busy
 * server (100 worlds created at once at concurrency 100, on a loaded machine: a few seconds per turn) the sixth
 * batch was still unread at 15 s and every connection left was closed unanswered at the same moment (ECONNRESET,
 * "socket hang up"), half of a run lost. At 8 every waiting request is read on the server's next turn. The
 * Worker's work runs on one thread anyway, so the cap costs no throughput: requests wait here (their timeout
 * running) instead of unread in the server's sockets. Hosted servers (https) are not capped.
 */
export const LOCAL_MAX_CONNECTIONS = 8;

// The idle timeout closes sockets nobody uses again, so the pool holds no dead ones; it is hygiene, not the
// defence: its timer runs late when the event loop is busy.
const agents = {
  "http:": new http.Agent({ keepAlive: true, timeout: MAX_IDLE_MS, maxSockets: LOCAL_MAX_CONNECTIONS }),
  "https:": new https.Agent({ keepAlive: true, timeout: MAX_IDLE_MS }),
};

/**
 * Sends one request and reads the whole answer. Rejects on network failure, timeout (TimeoutError) or abort;
 * a reset before any answer is retried when that is safe (see above).
 */
export async function send(r: TransportRequest): Promise<TransportResponse> {
  const retrySafe = r.retrySafe ?? IDEMPOTENT.has(r.method.toUpperCase());
  let retries = 0;
  let refused = 0;
  for (;;) {
    const out = await sendOnce(r);
    if (out.ok) return out.response;
    const { error, unsentRequest, answered } = out;
    if (r.signal?.aborted) throw error;
    if (unsentRequest && ++refused <= MAX_REFUSED) continue;
    const reset = RESET_CODES.has((error as NodeJS.ErrnoException).code ?? "");
    // Reused (the server's idle close crossing the request) or fresh (a busy workerd closing it unread), the
    // request may have been read: only a request safe to repeat is sent again, and a server that keeps
    // dropping it is still reported after MAX_RETRIES. A server gone refuses the retry (ECONNREFUSED).
    if (!(reset && !answered && retrySafe) || ++retries > MAX_RETRIES) throw error;
  }
}

type Attempt =
  | { ok: true; response: TransportResponse }
  | { ok: false; error: Error; unsentRequest: boolean; answered: boolean };

function sendOnce(r: TransportRequest): Promise<Attempt> {
  const url = new URL(r.url);
  const mod = url.protocol === "https:" ? https : http;
  const agent = agents[url.protocol as keyof typeof agents];
  if (!agent) return Promise.reject(new TypeError(`unsupported protocol ${url.protocol} in ${r.url}`));
  return new Promise((resolve, reject) => {
    if (r.signal?.aborted) return reject(r.signal.reason);
    const body = r.body === undefined ? undefined : Buffer.from(r.body, "utf8");
    const headers = body ? { ...r.headers, "content-length": String(body.byteLength) } : r.headers;
    let answered = false;
    const req = mod.request(url, { method: r.method, headers, agent }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("error", fail);
      res.on("end", () => {
        done();
        const text = Buffer.concat(chunks).toString("utf8");
        const status = res.statusCode ?? 0;
        resolve({ ok: true, response: { status, ok: status >= 200 && status < 300, text: () => text, json: () => JSON.parse(text) as unknown } });
      });
    });
    let timer: NodeJS.Timeout | undefined;
    const onAbort = () => req.destroy(r.signal!.reason instanceof Error ? r.signal!.reason : new DOMException("aborted", "AbortError"));
    r.signal?.addEventListener("abort", onAbort, { once: true });
    function done() {
      clearTimeout(timer);
      r.signal?.removeEventListener("abort", onAbort);
    }
    function fail(e: Error) {
      done();
      // Timeouts and aborts are final; only network failures are candidates for a retry.
      if (e instanceof DOMException) reject(e);
      else resolve({ ok: false, error: e, unsentRequest: unsent.has(req), answered });
    }
    req.on("error", fail);
    req.once("socket", (socket: Duplex) => {
      // The server's time starts here: a request that waited for one of this process's own connections
      // (LOCAL_MAX_CONNECTIONS) behind a hundred others was not the server failing to answer.
      timer = setTimeout(() => req.destroy(new DOMException(`no answer in ${r.timeoutMs} ms`, "TimeoutError")), r.timeoutMs);
      refuseIfStale(req, socket, performance.now());
    });
    req.end(body);
  });
}
