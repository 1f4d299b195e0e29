// Tools worlds in memory behind the agent's JSON surface: POST <base>/call {name, arguments} with the world's key as
// Bearer, answered as the server answers it (the result object, or the format's error body with its status). An
// example agent written against $WORLDS_TOOLS_URL runs here unchanged, without a server, one world per key.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { failureBody } from "../../../src/core/kinds/tools/simulate/failure";
import type { ToolsWorldBlock } from "../../../src/core/kinds/tools/world-block";
import { CLOCK, episode } from "./tools-episode";

const STATUS = { not_found: 404, invalid_arguments: 422, not_ready: 409, unavailable: 503 } as const;

export async function serveToolWorlds() {
  const worlds = new Map<string, { block: ToolsWorldBlock; world: ReturnType<typeof episode> }>();
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => {
      const w = worlds.get((req.headers.authorization ?? "").replace(/^Bearer /, ""));
      if (!w || req.method !== "POST" || !req.url?.endsWith("/call")) return void res.writeHead(401).end("{}");
      const c = JSON.parse(body) as { name: string; arguments?: Record<string, unknown> };
      const out = w.world.call({ name: c.name, arguments: c.arguments ?? {} });
      const [status, answer] = out.ok ? [200, out.result] : [STATUS[out.error.code], failureBody(w.block, c.name, out.error, CLOCK)];
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    /** A fresh world for the block under a new key. */
    open(key: string, block: ToolsWorldBlock) {
      const world = episode(block);
      worlds.set(key, { block, world });
      return world;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
