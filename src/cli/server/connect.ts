// Which server a command talks to: --url / WORLDS_URL with --token / WORLDS_TOKEN names a running server, local or
// hosted; `--server auto`, or naming none, starts the local one for this command only (token minted for the run).
import { flag } from "../flags";
import { AdminClient, ServerError } from "../client";
import type { ServerEnv } from "../../core/results/index";
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
  /** The flags that name this server on a suggested command line (never the token): none for a local run, which is the default. */
  flags: string[];
  /**
   * Environment a suggested command line needs before `worlds`: WORLDS_TOKEN (shown as `WORLDS_TOKEN=…`) when the token came from --token
   * (the line names the variable, never its value, so the token is not written into results or logs).
   */
  env: ServerEnv;
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
  server: { kind: "value", placeholder: "auto", help: "'auto' starts a local server for this command only (also the default when no --url or WORLDS_URL names one)" },
  url: { kind: "value", placeholder: "URL", help: "a running worlds server (default: $WORLDS_URL)" },
  token: { kind: "value", placeholder: "T", help: "its admin token (default: $WORLDS_TOKEN)" },
} as const;

export const SERVER_FLAG_SHAPE = {
  server: flag.oneOf(["auto"]).optional(),
  url: flag.url().optional(),
  token: flag.text().optional(),
};

/** What a command with no server named says on stderr before it starts the local one. */
export const LOCAL_BY_DEFAULT = "no server named: running a local one; --url URL for yours";

export async function connectServer(
  choice: ServerChoice,
  interrupt: Interrupt,
  env: NodeJS.ProcessEnv = process.env,
  note: (line: string) => void = (line) => process.stderr.write(line + "\n"),
): Promise<ConnectedServer> {
  const url = choice.url ?? env.WORLDS_URL;
  if (!choice.auto && !url) note(LOCAL_BY_DEFAULT);
  if (choice.auto || !url) {
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
    // No flag on suggested lines: a rerun with no server named runs a local one too.
    return { client, url: local.url, local, flags: [], env: [], stop: () => local.stop() };
  }
  const token = choice.token ?? env.WORLDS_TOKEN;
  if (!/^https?:\/\/\S+$/.test(url)) throw new ServerSetupError(`WORLDS_URL / --url is not an http(s) URL: '${url}'`, "set it to the URL `worlds serve` printed", 2);
  if (!token) throw new ServerSetupError(`no admin token for ${url}`, "pass --token or set WORLDS_TOKEN to the token `worlds serve` printed (or the server's WORLDS_TOKEN secret)");
  const client = new AdminClient(url, token);
  try {
    await client.seeds(); // reaches the server and proves the token in one call
  } catch (e) {
    if (e instanceof ServerError) throw new ServerSetupError(e.message, e.kind === "unauthorized" ? "pass the server's admin token with --token or WORLDS_TOKEN" : "start a server with `worlds serve`, or leave out --url and WORLDS_URL to run a local one");
    throw e;
  }
  return { client, url: client.url, local: null, flags: choice.url ? ["--url", client.url] : [], env: choice.token ? ["WORLDS_TOKEN"] : [], stop: async () => undefined };
}
