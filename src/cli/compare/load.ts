// Where `worlds compare` gets a results document: a file, or a run id on a server (the history `worlds runs`
// reads). Each failure carries the result contract's exit code: 2 for a file or an id that is not usable input,
// 3 for a server that cannot be reached, 4 for a run with nothing to compare yet.
import { readFileSync } from "node:fs";
import { readResultsText, readResultsValue, CompareInputError, type ReadResults } from "../../core/compare/input";
import { AdminClient, ServerError } from "../client";

export const RUN_ID = /^run_[A-Za-z0-9]{16}$/;

export class LoadError extends Error {
  constructor(
    readonly exitCode: 2 | 3 | 4,
    message: string,
    readonly nextAction: string,
  ) {
    super(message);
  }
}

export interface ServerRef {
  url?: string;
  token?: string;
}

export async function loadResults(source: string, server: ServerRef): Promise<ReadResults> {
  // A file by that name wins: someone may well have saved run_... as a file.
  const text = readIfFile(source);
  try {
    if (text !== null) return readResultsText(text, source);
    if (!RUN_ID.test(source)) throw new LoadError(2, `${source}: no such file (and not a run id, which looks like run_ and 16 letters or digits)`, "name a results file (worlds passk --json-file F) or a run id from worlds runs list");
    return await fetchRun(source, server);
  } catch (e) {
    if (e instanceof CompareInputError) throw new LoadError(2, e.message, "pass a results file written by worlds passk --json-file (or --json), or a run id");
    throw e;
  }
}

function readIfFile(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return null;
    if (code === "EISDIR") throw new LoadError(2, `${path} is a directory; name a results file inside it`, "pass a results file written by worlds passk --json-file");
    throw new LoadError(2, `${path}: cannot be read (${(e as Error).message})`, "check the file's permissions");
  }
}

async function fetchRun(id: string, server: ServerRef): Promise<ReadResults> {
  const url = server.url;
  if (!url || !server.token)
    throw new LoadError(2, `${id} is a run id, and reading it needs the server that ran it: ${url ? "" : "--url (or WORLDS_URL) and "}--token (or WORLDS_TOKEN)`, `worlds compare ... ${id} --url URL --token T`);
  let view;
  try {
    view = await new AdminClient(url, server.token).run(id);
  } catch (e) {
    if (e instanceof ServerError) {
      if (e.kind === "not_found") throw new LoadError(2, `${id}: no such run on ${url}`, `list the runs it keeps: worlds runs list --url ${url}`);
      throw new LoadError(e.exitCode === 2 ? 2 : 3, `${id}: ${e.message}`, `check the server: worlds doctor --url ${url}`);
    }
    throw e;
  }
  if (view.status !== "done" || !view.results)
    throw new LoadError(4, `${id} is ${view.status} (${view.progress.finished} of ${view.progress.total} episodes finished): it has no results to compare yet`, `wait for it: worlds runs show ${id} --url ${url}`);
  return readResultsValue(view.results, id);
}
