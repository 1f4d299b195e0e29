// A hosted run's HTTP agent for end-to-end tests: a real server on 127.0.0.1 that checks each request's
// signature as docs/hosted-runs.md asks an agent to, records the body, and answers with the handler's reply.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { verifyAgentRequest, type AgentRequestBody } from "../../../src/core/pipeline/index";

export interface SignedAgent {
  url: string;
  calls: AgentRequestBody[];
  close(): Promise<void>;
}

export async function startSignedAgent(secret: string, reply: (body: AgentRequestBody, req: IncomingMessage) => Promise<string>): Promise<SignedAgent> {
  const calls: AgentRequestBody[] = [];
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const check = await verifyAgentRequest(secret, (n) => req.headers[n] as string | undefined, raw, Date.now() / 1000);
    if (!check.ok) return void res.writeHead(401).end(check.reason);
    const body = JSON.parse(raw) as AgentRequestBody;
    calls.push(body);
    try {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ reply: await reply(body, req) }));
    } catch (e) {
      res.writeHead(500).end((e as Error).message);
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls, close: () => new Promise((r) => server.close(() => r())) };
}
