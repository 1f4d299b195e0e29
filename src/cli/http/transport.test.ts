// Issue 11 item 3: workerd closes a keep-alive connection idle for 5 s, and the transport reused such sockets, so
// a request crossed the server's close and failed with ECONNRESET (an infrastructure error in a crash test). The
// servers here close idle connections the same way, but deterministically: a request arriving on a connection
// idle longer than `idleMs` is answered with a TCP reset, unread, as a request crossing the server's FIN is.
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { MAX_IDLE_MS, send, type TransportRequest } from "./transport";

interface IdleClosingServer {
  url: string;
  /** Requests the server read and answered, as "METHOD path body". */
  handled: string[];
  /** Connections it reset because they had been idle too long. */
  resets: number;
  /** Connections accepted. */
  connections: number;
}

const servers: http.Server[] = [];

/** `stallMs`: after answering /stall, the server (and this whole process with it) is busy for that long. */
async function idleClosingServer(idleMs: number, stallMs = 0): Promise<IdleClosingServer> {
  const state: IdleClosingServer = { url: "", handled: [], resets: 0, connections: 0 };
  const lastActive = new WeakMap<Socket, number>();
  const reset = new WeakSet<Socket>();
  const server = http.createServer((req, res) => {
    // The parser still sees the bytes that arrived with the reset; a reset connection's request is never acted on.
    if (reset.has(req.socket)) return;
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", async () => {
      if (req.url === "/slow") await sleep(MAX_IDLE_MS * 0.75);
      state.handled.push(`${req.method} ${req.url} ${body}`);
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ n: state.handled.length }));
      // The server's idle clock starts as its answer is written, whenever the client gets to read it.
      lastActive.set(req.socket, performance.now());
      if (req.url === "/stall") busy(stallMs);
    });
  });
  // No Keep-Alive hint in answers (workerd sends none), so the client cannot learn the server's limit from them.
  server.keepAliveTimeout = 0;
  server.on("connection", (socket: Socket) => {
    state.connections++;
    // Runs before the HTTP parser's own listener: a stale connection is reset before its request is read.
    socket.prependListener("data", () => {
      const last = lastActive.get(socket);
      if (last !== undefined && performance.now() - last > idleMs) {
        state.resets++;
        reset.add(socket);
        socket.resetAndDestroy();
      }
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r).closeAllConnections());
});

/** Holds the event loop: no timer fires, no socket is read (a machine under load, a slow fork). */
function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const req = (url: string, method: string, body?: string, extra: Partial<TransportRequest> = {}): TransportRequest => ({
  method,
  url,
  headers: body === undefined ? {} : { "content-type": "application/json" },
  body,
  timeoutMs: 10_000,
  ...extra,
});

describe("transport: keep-alive sockets against a server that closes idle connections", () => {
  it("never sends a request on a socket idle longer than the server allows (POST included), and loses none", { timeout: 30_000 }, async () => {
    // The server's limit a little over the transport's: what the transport keeps must never be what it closes.
    const srv = await idleClosingServer(MAX_IDLE_MS + 200);
    const first = await Promise.all([0, 1, 2, 3].map((i) => send(req(`${srv.url}/a`, "POST", `{"i":${i}}`))));
    expect(first.every((r) => r.ok)).toBe(true);
    await sleep(MAX_IDLE_MS + 500);
    // Four sockets idle past the server's limit: each request must go out on a fresh connection.
    const again = await Promise.all([0, 1, 2, 3].map((i) => send(req(`${srv.url}/b`, "POST", `{"i":${i}}`))));
    expect(again.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(srv.resets).toBe(0);
    expect(srv.handled.filter((h) => h.startsWith("POST /b")).sort()).toEqual([0, 1, 2, 3].map((i) => `POST /b {"i":${i}}`));
  });

  it("refuses a stale socket even when the event loop was too busy for its idle timer to fire", { timeout: 30_000 }, async () => {
    const srv = await idleClosingServer(MAX_IDLE_MS + 200);
    expect((await send(req(`${srv.url}/a`, "POST", "{}"))).ok).toBe(true);
    await sleep(0);
    // A machine under load: nothing else runs, no timer fires, and the next request is made the moment it ends.
    busy(MAX_IDLE_MS + 500);
    const res = await send(req(`${srv.url}/b`, "POST", "{}"));
    expect(res.ok).toBe(true);
    expect(srv.resets).toBe(0);
    expect(srv.handled).toEqual(["POST /a {}", "POST /b {}"]);
    expect(srv.connections).toBe(2);
  });

  it("passes over every stale socket in the pool, however many, and sends once on a fresh one", { timeout: 30_000 }, async () => {
    const srv = await idleClosingServer(MAX_IDLE_MS + 200);
    // Six sockets whose last request took most of the allowance: idle only briefly by their timers, but counted
    // from their last request's start, all past it.
    await Promise.all([0, 1, 2, 3, 4, 5].map(() => send(req(`${srv.url}/slow`, "POST", "{}"))));
    await sleep(MAX_IDLE_MS * 0.4);
    const res = await send(req(`${srv.url}/b`, "POST", "{}"));
    expect(res.ok).toBe(true);
    expect(srv.resets).toBe(0);
    expect(srv.handled.filter((h) => h.startsWith("POST /b"))).toHaveLength(1);
  });

  it("refuses a socket whose last answer sat unread while this process was stalled", { timeout: 30_000 }, async () => {
    // The answer reaches the socket and the server starts counting idle time; this process reads it only after
    // the stall, so an idle clock started on reading it would call the socket fresh.
    const srv = await idleClosingServer(MAX_IDLE_MS + 200, MAX_IDLE_MS + 500);
    expect((await send(req(`${srv.url}/stall`, "POST", "{}"))).ok).toBe(true);
    const res = await send(req(`${srv.url}/b`, "POST", "{}"));
    expect(res.ok).toBe(true);
    expect(srv.resets).toBe(0);
    expect(srv.handled).toEqual(["POST /stall {}", "POST /b {}"]);
    expect(srv.connections).toBe(2);
  });

  it("retries an idempotent request whose reused socket was reset before any answer, once, on a fresh connection", async () => {
    // A server whose limit is under the transport's: the reset comes, and only a safe retry can hide it.
    const srv = await idleClosingServer(50);
    expect((await send(req(`${srv.url}/x`, "GET"))).ok).toBe(true);
    await sleep(300);
    const res = await send(req(`${srv.url}/x`, "GET"));
    expect(res.ok).toBe(true);
    expect(srv.resets).toBe(1);
    expect(srv.handled).toEqual(["GET /x ", "GET /x "]);
  });

  it("does not retry a POST the server may have acted on, unless the caller vouches it is safe to repeat", async () => {
    const srv = await idleClosingServer(50);
    expect((await send(req(`${srv.url}/w`, "POST", "{}"))).ok).toBe(true);
    await sleep(300);
    const err = (await send(req(`${srv.url}/w`, "POST", "{}")).catch((e: unknown) => e)) as NodeJS.ErrnoException;
    expect(err.code).toBe("ECONNRESET");
    expect(srv.handled).toHaveLength(1);

    expect((await send(req(`${srv.url}/w`, "POST", "{}"))).ok).toBe(true); // a connection to reuse again
    await sleep(300);
    const vouched = await send(req(`${srv.url}/w`, "POST", "{}", { retrySafe: true, headers: { "idempotency-key": "k1" } }));
    expect(vouched.ok).toBe(true);
    expect(srv.resets).toBe(2);
    expect(srv.handled).toHaveLength(3);
  });

  it("does not retry a connection that fails on its first request (no stale socket involved)", async () => {
    const srv = await idleClosingServer(50);
    await new Promise((r) => servers.pop()!.close(r).closeAllConnections());
    const err = (await send(req(`${srv.url}/x`, "GET")).catch((e: unknown) => e)) as NodeJS.ErrnoException;
    expect(err.code).toBe("ECONNREFUSED");
  });
});
