// `worlds passk --url URL --agent-url AGENT_URL --tasks FILE`: a hosted run. The file is compiled here first
// (the same checks and exit codes as a local run), then posted to the server, which runs every episode against
// the agent URL from its queue; this command follows it with the same progress line and ends with the same
// output and exit code as a local run. Ctrl-C stops the following, not the run.
import { readFileSync, writeFileSync } from "node:fs";
import { earlyResults, serializeResults, type Results } from "../../core/results/index";
import { renderHtml, renderJunit, renderText, contractLines } from "../../core/report/index";
import { readTasksFile } from "../../core/kinds/account/tasks/index";
import type { EpisodeView, RunRequest, RunView } from "../../core/pipeline/index";
import type { HostedJudgeRequest } from "../../core/policy-judge/index";
import { AdminClient } from "../client";
import { loadTasks } from "../passk/load";
import { progressView, type ProgressView } from "../results/progress";

export interface HostedPasskOptions {
  /** The worlds server (hosted or `worlds serve`). */
  url: string;
  token: string;
  agentUrl: string;
  /** Keys the signature on every request to the agent (docs/hosted-runs.md). */
  agentSecret: string;
  tasksFile: string;
  runs?: number;
  mode?: "isolated" | "shift";
  task?: string[];
  concurrency?: number;
  timeoutS?: number;
  scenario?: string;
  /** The policy judge, as the server takes it (passk --judge; the policy's text, the server's own key). */
  judge?: HostedJudgeRequest;
  json?: boolean;
  jsonFile?: string;
  report?: string;
  junit?: string;
  /** The gates and the baseline (passk --gate/--baseline): the results they decide, and the text with the comparison. */
  finish?: (results: Results) => { results: Results; text: (rendered: string) => string };
  /** Aborted on Ctrl-C: stop following (the run goes on on the server). */
  signal?: AbortSignal;
  pollMs?: number;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WriteStream;
}

/** Runs the whole hosted passk and returns its exit code (0 passed, 1 policy_failed, 2-4, 128+signal). */
export async function runHostedPassk(o: HostedPasskOptions): Promise<number> {
  const out = o.stdout ?? process.stdout;
  const err = o.stderr ?? process.stderr;
  const say = (line: string) => (o.json ? err : out).write(line + "\n");
  const early = (status: "configuration_incomplete" | "setup_failed" | "inconclusive", reason: string, next: string): number => {
    const doc = earlyResults({ status, reason, next_action: next });
    err.write(`worlds passk: ${reason}\n`);
    if (o.json) out.write(JSON.stringify(doc, null, 2) + "\n");
    else out.write(contractLines(doc).join("\n") + "\n");
    return doc.exit_code;
  };
  const server = o.url.replace(/\/+$/, "");

  // The same compile a local run does, so a broken file fails here, before anything is posted.
  const loaded = await loadTasks(o.tasksFile, new AdminClient(server, o.token, { signal: o.signal }));
  if (!loaded.ok) {
    for (const p of loaded.problems) err.write(p + "\n");
    return early(loaded.exitCode === 2 ? "configuration_incomplete" : "setup_failed", loaded.reason, loaded.nextAction);
  }
  const compiled = loaded.compiled;
  const text = readFileSync(o.tasksFile);
  const refs = readTasksFile(text, o.tasksFile).refs;
  // The server compiles the text itself when it can read everything the file names; a seed file beside the
  // tasks file, or an identity map, exist only here, so the compiled seed and rubric are sent instead.
  const localOnly = (refs.seed?.endsWith(".json") ?? false) || refs.identity_map !== null;
  const mode = o.mode ?? compiled.file.mode ?? "isolated";
  const request: RunRequest = {
    tasks: localOnly ? { seed: compiled.seed as unknown as Record<string, unknown>, rubric: compiled.rubric as unknown as Record<string, unknown> } : text.toString("utf8"),
    tasks_file: o.tasksFile,
    runs: o.runs,
    mode: o.mode,
    task: o.task && o.task.length ? o.task : undefined,
    agent: { url: o.agentUrl, secret: o.agentSecret },
    concurrency: o.concurrency,
    timeout_s: o.timeoutS,
    scenario: o.scenario,
    ...(o.judge ? { judge: o.judge } : {}),
  };
  say(compiled.summary.replace(/ · (isolated|shift) · /, ` · ${mode} · `));
  return postAndFollow(o, request, "passk");
}

/** What posting a run needs beside its request: the server, where output goes, and how the results are finished. */
export type FollowOptions = Pick<HostedPasskOptions, "url" | "token" | "agentUrl" | "concurrency" | "json" | "jsonFile" | "report" | "junit" | "finish" | "signal" | "pollMs" | "stdout" | "stderr">;

/**
 * Posts a run request (an account run or a tools run), follows it with the progress line, and ends with the
 * results in every format asked for. Returns the results' exit code, or the early status's.
 */
export async function postAndFollow(o: FollowOptions, request: RunRequest, command: string): Promise<number> {
  const out = o.stdout ?? process.stdout;
  const err = o.stderr ?? process.stderr;
  const say = (line: string) => (o.json ? err : out).write(line + "\n");
  const early = (status: "configuration_incomplete" | "setup_failed" | "inconclusive", reason: string, next: string): number => {
    const doc = earlyResults({ status, reason, next_action: next });
    err.write(`worlds ${command}: ${reason}\n`);
    if (o.json) out.write(JSON.stringify(doc, null, 2) + "\n");
    else out.write(contractLines(doc).join("\n") + "\n");
    return doc.exit_code;
  };
  const server = o.url.replace(/\/+$/, "");
  const http = hostedHttp(server, o.token, o.signal);
  const posted = await http("POST", "/admin/runs", request);
  if (!posted.ok) {
    const status = posted.status === 400 ? "configuration_incomplete" : "setup_failed";
    return early(status, `the server refused the run: ${posted.message}`, posted.status === 400 ? "fix what the message names, then run again" : `check the server at ${server} (worlds doctor --url ${server})`);
  }
  const runId = (posted.body as { run_id: string }).run_id;
  say(`hosted run ${runId} on ${server} · agent ${o.agentUrl}`);

  // The server runs up to --concurrency episodes at once (1 when not given: its own default is not known here).
  const progress = progressView(err, Date.now, o.concurrency ?? 1);
  const followed = await follow(http, runId, progress, o.pollMs ?? 500, o.signal);
  progress.end();
  if (followed.kind === "interrupted") {
    const doc = earlyResults({ status: "interrupted", signal: followed.signal, reason: `stopped following run ${runId} on ${followed.signal}; the run goes on on the server`, next_action: `read it later: worlds runs show ${runId} --url ${server}` });
    err.write(`worlds ${command}: ${doc.reason}\n`);
    if (o.json) out.write(JSON.stringify(doc, null, 2) + "\n");
    else out.write(contractLines(doc).join("\n") + "\n");
    return doc.exit_code;
  }
  if (followed.kind === "error") return early("setup_failed", followed.message, `check the run: GET ${server}/admin/runs/${runId}`);
  const finished = o.finish ? o.finish(followed.results) : { results: followed.results, text: (t: string) => t };
  const results = finished.results;
  const doc = serializeResults(results);
  if (o.jsonFile) writeFileSync(o.jsonFile, doc);
  if (o.report) writeFileSync(o.report, renderHtml(results));
  if (o.junit) writeFileSync(o.junit, renderJunit(results));
  out.write(o.json ? doc : finished.text(renderText(results, command === "tools run" ? "tools" : command === "evals run" ? "evals" : "account")));
  return results.exit_code;
}

type Answer = { ok: true; body: unknown } | { ok: false; status: number | null; message: string };
type Http = (method: string, path: string, body?: unknown) => Promise<Answer>;

function hostedHttp(server: string, token: string, signal?: AbortSignal): Http {
  return async (method, path, body) => {
    let res: Response;
    try {
      res = await fetch(server + path, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(60_000)]) : AbortSignal.timeout(60_000),
      });
    } catch (e) {
      return { ok: false, status: null, message: `no worlds server answers at ${server} (${(e as Error).message})` };
    }
    const text = await res.text();
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {
      // reported below with the status
    }
    if (res.ok) return { ok: true, body: json };
    const error = (json as { error?: { message?: string; issues?: Array<{ text?: string }> } } | null)?.error;
    const detail = error?.issues?.map((i) => i.text).filter(Boolean).join("\n  ");
    return { ok: false, status: res.status, message: `${res.status} ${error?.message ?? text.slice(0, 200)}${detail ? `\n  ${detail}` : ""}` };
  };
}

type Followed = { kind: "done"; results: Results } | { kind: "error"; message: string } | { kind: "interrupted"; signal: string };

/** Polls the run, printing each episode as it finishes, until the run is done. */
async function follow(http: Http, runId: string, progress: ProgressView, pollMs: number, signal?: AbortSignal): Promise<Followed> {
  const seen = new Set<number>();
  let since = 0;
  let passed = 0;
  let graded = 0;
  let finished = -1;
  for (;;) {
    if (signal?.aborted) return { kind: "interrupted", signal: signalName(signal) };
    const got = await http("GET", `/admin/runs/${runId}`);
    if (!got.ok) {
      if (signal?.aborted) return { kind: "interrupted", signal: signalName(signal) };
      return { kind: "error", message: `lost the run ${runId}: ${got.message}` };
    }
    const view = got.body as RunView;
    if (view.progress.finished !== finished) {
      finished = view.progress.finished;
      const page = await http("GET", `/admin/runs/${runId}/episodes?finished_after=${Math.max(0, since - 1)}&limit=1000`);
      if (page.ok)
        for (const e of (page.body as { data: EpisodeView[] }).data) {
          if (seen.has(e.n) || e.finished_at === null) continue;
          seen.add(e.n);
          since = Math.max(since, Date.parse(e.finished_at));
          passed += e.passed;
          graded += e.graded;
          progress.episode({ done: seen.size, total: view.progress.total, passed, graded, last: { run: e.repetition, tasks: e.tasks, world: e.world, note: e.note ?? e.status } });
        }
    }
    if (view.status === "done") {
      if (view.results) return { kind: "done", results: view.results };
      const r = await http("GET", `/admin/runs/${runId}/results`);
      return r.ok ? { kind: "done", results: r.body as Results } : { kind: "error", message: `run ${runId} is done but its results cannot be read: ${r.message}` };
    }
    if (view.status === "failed") return { kind: "error", message: `the run ${runId} failed on the server: ${view.error ?? "no reason given"}` };
    await sleep(pollMs, signal);
  }
}

function signalName(signal: AbortSignal): string {
  const m = /\b(SIG[A-Z]+)\b/.exec(String((signal.reason as Error | undefined)?.message ?? ""));
  return m ? m[1] : "SIGINT";
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(t), resolve()), { once: true });
  });
}
