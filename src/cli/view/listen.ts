// Serves a fetch handler (the Hono app) on node:http, bound to loopback: the pages read local files, so nothing
// off this machine may reach them. GET and HEAD only; the app never reads a body.
import { createServer, type Server } from "node:http";

export interface Listening {
  url: string;
  close(): Promise<void>;
}

export async function listen(fetch: (req: Request) => Response | Promise<Response>, port: number, host = "127.0.0.1"): Promise<Listening> {
  const server: Server = createServer((req, res) => {
    void (async () => {
      try {
        if (req.method !== "GET" && req.method !== "HEAD") {
          res.writeHead(405, { allow: "GET, HEAD", "content-type": "text/plain; charset=utf-8" }).end("worlds view only reads\n");
          return;
        }
        const answer = await fetch(new Request(new URL(req.url ?? "/", `http://${host}`), { method: req.method }));
        const headers: Record<string, string> = {};
        answer.headers.forEach((value, name) => (headers[name] = value));
        res.writeHead(answer.status, headers);
        res.end(req.method === "HEAD" ? undefined : Buffer.from(await answer.arrayBuffer()));
      } catch (e) {
        if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
        res.end(`worlds view: ${(e as Error).message}\n`);
      }
    })();
  });
  await new Promise<void>((ok, fail) => {
    server.once("error", fail);
    server.listen(port, host, () => ok());
  });
  const address = server.address();
  const bound = typeof address === "object" && address ? address.port : port;
  return {
    url: `http://${host}:${bound}/`,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}
