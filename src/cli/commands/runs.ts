// `worlds runs list|show`: the history a running server keeps, hosted runs and CLI runs alike (passk registers
// each finished run). Read-only, through GET /admin/runs and GET /admin/runs/:id.
import { z } from "zod";
import { renderText } from "../../core/report/index";
import type { Results } from "../../core/results/index";
import type { RunSummary, RunView } from "../../core/pipeline/index";
import { RUN_STATUSES } from "../../core/pipeline/index";
import { AdminClient, ServerError } from "../client";
import { flag, FlagError, helpText, parseArgs, type FlagDefs } from "../flags";
import { SERVER_FLAG_DEFS } from "../server/connect";
import type { Command } from "./types";

const SERVER_DEFS: FlagDefs = {
  url: SERVER_FLAG_DEFS.url,
  token: SERVER_FLAG_DEFS.token,
  // Known only so that it can be refused with the reason (see connect below).
  server: { kind: "value", placeholder: "auto", help: "not accepted: a server started for one command has no runs; use --url" },
};
const LIST_DEFS: FlagDefs = {
  status: { kind: "value", placeholder: "S", help: `only runs in this status (${RUN_STATUSES.join(", ")})` },
  limit: { kind: "value", placeholder: "N", help: "at most N runs, newest first (default 20, at most 200)" },
  ...SERVER_DEFS,
};
const SHOW_DEFS: FlagDefs = { json: { kind: "switch", help: "print the stored results document (the run view while it is not done)" }, ...SERVER_DEFS };
const server = { url: flag.url().optional(), token: flag.text().optional(), server: flag.text().optional() };
const LIST = z.strictObject({ status: flag.oneOf(RUN_STATUSES).optional(), limit: flag.int(1, 200).optional(), ...server });
const SHOW = z.strictObject({ json: flag.switch(), ...server });

const LIST_USAGE = "worlds runs list [--status S] [--limit N] [--url URL] [--token T]";
const SHOW_USAGE = "worlds runs show RUN_ID [--json] [--url URL] [--token T]";

export const runs: Command = {
  summary: "list the runs a server keeps, or show one with its crash test (needs --url/WORLDS_URL and a token)",
  async run(argv) {
    const [sub, ...rest] = argv;
    if (!sub || sub === "--help" || sub === "-h" || sub === "help") {
      (sub ? process.stdout : process.stderr).write(`usage:\n  ${LIST_USAGE}\n  ${SHOW_USAGE}\n\nRuns are kept by the server: hosted runs, and every run worlds passk finished against it.\n`);
      return sub ? 0 : 2;
    }
    try {
      if (sub === "list") return await list(rest);
      if (sub === "show") return await show(rest);
      process.stderr.write(`worlds runs: unknown sub-command '${sub}' (list or show).\n`);
      return 2;
    } catch (e) {
      if (e instanceof FlagError) {
        process.stderr.write(`worlds ${e.command}: ${e.message}\nRun 'worlds ${e.command} --help' for its options.\n`);
        return 2;
      }
      if (e instanceof ServerError) {
        process.stderr.write(`worlds runs: ${e.message}\n`);
        return e.kind === "not_found" ? 1 : e.exitCode;
      }
      throw e;
    }
  },
};

async function list(argv: string[]): Promise<number> {
  const args = parseArgs("runs list", argv, LIST_DEFS, LIST);
  if (args.help) return help(LIST_USAGE, "Lists the runs the server keeps, newest first.", LIST_DEFS);
  const client = connect("runs list", args.flags);
  const rows = await client.runs({ status: args.flags.status, limit: args.flags.limit ?? 20 });
  if (rows.length === 0) {
    process.stdout.write(`no runs${args.flags.status ? ` with status ${args.flags.status}` : ""} on ${client.url}\n`);
    return 0;
  }
  for (const r of rows) process.stdout.write(summaryLine(r) + "\n");
  return 0;
}

async function show(argv: string[]): Promise<number> {
  const args = parseArgs("runs show", argv, SHOW_DEFS, SHOW, { positionals: 1 });
  if (args.help) return help(SHOW_USAGE, "Shows one run: its status and progress, and when done its crash test.", SHOW_DEFS);
  const [id] = args.positionals;
  if (!id) throw new FlagError("runs show", "which run? Pass its id (worlds runs list shows them).");
  if (!/^run_[A-Za-z0-9]{16}$/.test(id)) throw new FlagError("runs show", `'${id}' is not a run id (run_ followed by 16 letters or digits).`);
  const client = connect("runs show", args.flags);
  const view = await client.run(id);
  if (args.flags.json) {
    process.stdout.write(JSON.stringify(view.results ?? view, null, 2) + "\n");
    return 0;
  }
  process.stdout.write(viewText(view));
  return 0;
}

/** A fresh local server has no history, so --server auto is refused rather than showing an empty list. */
function connect(command: string, f: { url?: string; token?: string; server?: string }, env: NodeJS.ProcessEnv = process.env): AdminClient {
  if (f.server !== undefined)
    throw new FlagError(command, "--server auto starts an empty server with no runs to read; name the server that ran them with --url (or WORLDS_URL), e.g. the one `worlds serve --persist DIR` runs.");
  const url = f.url ?? env.WORLDS_URL;
  const token = f.token ?? env.WORLDS_TOKEN;
  if (!url) throw new FlagError(command, "no server named: pass --url or set WORLDS_URL (the server keeps the runs).");
  if (!/^https?:\/\/\S+$/.test(url)) throw new FlagError(command, `WORLDS_URL is not an http(s) URL: '${url}'.`);
  if (!token) throw new FlagError(command, `no admin token for ${url}: pass --token or set WORLDS_TOKEN.`);
  return new AdminClient(url, token);
}

function summaryLine(r: RunSummary): string {
  const outcome = r.exit_code === null ? r.status : `${r.status} (exit ${r.exit_code})`;
  return `${r.id}  ${outcome.padEnd(17)} ${r.source.padEnd(8)} ${r.mode.padEnd(8)} ${r.tasks} task${r.tasks === 1 ? "" : "s"} x ${r.runs}  ${r.created_at}`;
}

function viewText(v: RunView): string {
  const p = v.progress;
  const lines = [
    `run ${v.id} · ${v.status} · ${v.source} · ${v.mode} · ${v.tasks} task${v.tasks === 1 ? "" : "s"} x ${v.runs} · created ${v.created_at}${v.finished_at ? ` · finished ${v.finished_at}` : ""}`,
    `agent: ${v.agent_url}`,
    `progress: ${p.finished}/${p.total} episodes finished (${p.done} graded, ${p.infra_errors} infrastructure errors, ${p.running} running, ${p.pending} pending) · ${p.passed} of ${p.graded} keyed trials passed`,
  ];
  if (v.error) lines.push(`error: ${v.error}`);
  const head = lines.join("\n") + "\n";
  return v.results ? `${head}\n${renderText(v.results as Results)}` : head;
}

function help(usage: string, summary: string, defs: FlagDefs): number {
  process.stdout.write(helpText(usage, summary, defs));
  return 0;
}
