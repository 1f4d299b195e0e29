// Which server a command talks to: `--server auto` starts the local one for this command only (token minted for
// the run); otherwise --url / WORLDS_URL with --token / WORLDS_TOKEN names a running server, local or hosted.
import { flag } from "../flags";
import { AdminClient, ServerError } from "../client";
import type { Interrupt } from "../signals";
import { LocalServerError, startLocalServer, takeEarlyServer, type LocalServer } from "./local";

export interface ServerChoice {
  auto: boolean;
  url?: string;
  token?: string;
}

export interface ConnectedServer {
  client: AdminClient;
  url: string;
  /** The local server this command started, or null. */
  local: LocalServer | null;
  /** The flags that name this server on a suggested command line (never the token). */
  flags: string[];
  /** Stops the local server if this command started one; idempotent. */
  stop(): Promise<void>;
}

/** The server could not be reached or used: setup_failed (exit 3), with what to do about it. */
export class ServerSetupError extends Error {
  constructor(message: string, readonly nextAction: string, readonly exitCode = 3) {
    super(message);
  }
}

/**
 * connectServer for a command's run: a setup failure releases the interrupt and goes to `report` as the message
 * and what to do next, and its exit code is returned instead of a server.
 */
export async function connectOrReport(choice: ServerChoice, interrupt: Interrupt, report: (text: string, exitCode: number) => number): Promise<ConnectedServer | number> {
  try {
    return await connectServer(choice, interrupt);
  } catch (e) {
    interrupt.dispose();
    if (e instanceof ServerSetupError) return report(`${e.message}\nnext: ${e.nextAction}`, e.exitCode);
    throw e;
  }
}

/** Flags every server-using command shares (see flags.ts for the parser). */
export const SERVER_FLAG_DEFS = {
  server: { kind: "value", placeholder: "auto", help: "'auto' starts a local server for this command only" },
  url: { kind: "value", placeholder: "URL", help: "a running worlds server (default: $WORLDS_URL)" },
  token: { kind: "value", placeholder: "T", help: "its admin token (default: $WORLDS_TOKEN)" },
} as const;

export const SERVER_FLAG_SHAPE = {
  server: flag.oneOf(["auto"]).optional(),
  url: flag.url().optional(),
  token: flag.text().optional(),
};

export async function connectServer(choice: ServerChoice, interrupt: Interrupt, env: NodeJS.ProcessEnv = process.env): Promise<ConnectedServer> {
  if (choice.auto) {
    let local: LocalServer;
    try {
      // The one main.ts started while this command loaded, if any: the same options.
      local = await (takeEarlyServer() ?? startLocalServer({}));
    } catch (e) {
      if (e instanceof LocalServerError) throw new ServerSetupError(`the local server did not start: ${e.message}`, "run `npm run build`, then try again; `worlds serve` shows the server's own errors");
      throw e;
    }
    // Our handlers, not Miniflare's, decide what happens on Ctrl-C (agents and worlds first).
    interrupt.takeOver();
    // No abort signal on the client: after Ctrl-C it still has worlds to destroy.
    const client = new AdminClient(local.url, local.token, { localServer: true });
    return { client, url: local.url, local, flags: ["--server", "auto"], stop: () => local.stop() };
  }
  const url = choice.url ?? env.WORLDS_URL;
  const token = choice.token ?? env.WORLDS_TOKEN;
  if (!url)
    throw new ServerSetupError("no server named: neither --server auto, --url nor WORLDS_URL was given", "add --server auto to run a local server for this command, or start one with `worlds serve` and pass --url");
  if (!/^https?:\/\/\S+$/.test(url)) throw new ServerSetupError(`WORLDS_URL / --url is not an http(s) URL: '${url}'`, "set it to the URL `worlds serve` printed", 2);
  if (!token) throw new ServerSetupError(`no admin token for ${url}`, "pass --token or set WORLDS_TOKEN to the token `worlds serve` printed (or the server's WORLDS_TOKEN secret)");
  const client = new AdminClient(url, token);
  try {
    await client.seeds(); // reaches the server and proves the token in one call
  } catch (e) {
    if (e instanceof ServerError) throw new ServerSetupError(e.message, e.kind === "unauthorized" ? "pass the server's admin token with --token or WORLDS_TOKEN" : "start a server with `worlds serve`, or use --server auto");
    throw e;
  }
  return { client, url: client.url, local: null, flags: choice.url ? ["--url", client.url] : [], stop: async () => undefined };
}
