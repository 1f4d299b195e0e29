// CLI runs are kept by the server they ran against: `worlds passk --url` registers each finished run, and
// `worlds runs list|show` read it back, from a persistent local server (what `worlds serve --persist` runs).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalServer, type LocalServer } from "../../src/cli/server/local";
import type { Results } from "../../src/core/results/index";
import { ROOT, runCli, startCli } from "./helpers/cli";
import { assertValidResults } from "./helpers/validate-results";

const TASKS = "examples/agents/selftest.tasks.yaml";
const dir = mkdtempSync(join(tmpdir(), "worlds-runs-history-"));
let server: LocalServer;

beforeAll(async () => {
  server = await startLocalServer({ persist: join(dir, "state") });
});

afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const against = () => ["--url", server.url, "--token", server.token];

describe("worlds runs list|show", () => {
  it("shows a passk run registered on the server: the list, the crash test, the stored results and the traces", { timeout: 240_000 }, async () => {
    const passk = await runCli(["passk", "--tasks", TASKS, ...against(), "--mode", "shift", "--runs", "2", "--json", "--", "node", join(ROOT, "examples", "agents", "careful.mjs")], { timeoutMs: 180_000 });
    expect(passk.code).toBe(0);
    const local = JSON.parse(passk.stdout) as Results;
    const id = /registered as (run_[A-Za-z0-9]{16}): worlds runs show \1 --url /.exec(passk.stderr)?.[1];
    expect(id, passk.stderr).toBeDefined();

    const list = await runCli(["runs", "list", ...against()]);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(new RegExp(`^${id}  done \\(exit 0\\)\\s+cli\\s+shift\\s+3 tasks x 2 `, "m"));
    const failed = await runCli(["runs", "list", "--status", "failed", ...against()]);
    expect(failed.stdout).not.toContain(id);

    const show = await runCli(["runs", "show", id!, ...against()]);
    expect(show.code).toBe(0);
    expect(show.stdout).toMatch(new RegExp(`^run ${id} · done · cli · shift · 3 tasks x 2 `));
    expect(show.stdout).toContain("progress: 2/2 episodes finished (2 graded, 0 infrastructure errors, 0 running, 0 pending)");
    expect(show.stdout).toContain("status: passed (exit 0)");

    const json = await runCli(["runs", "show", id!, "--json", ...against()]);
    expect(json.code).toBe(0);
    const stored = JSON.parse(json.stdout) as Results;
    assertValidResults(stored);
    expect(stored).toEqual(local);

    // Each episode points at the trace its world left when passk destroyed it.
    const res = await fetch(`${server.url}/admin/runs/${id}/episodes/1/trace`, { headers: { authorization: `Bearer ${server.token}` } });
    expect(res.status).toBe(200);
    expect((await res.text()).split("\n").filter(Boolean).length).toBeGreaterThan(0);
  });

  it("worlds view --url browses the server's runs: the index and each report with the agent's calls", { timeout: 60_000 }, async () => {
    const [run] = (await (await fetch(`${server.url}/admin/runs`, { headers: { authorization: `Bearer ${server.token}` } })).json()).data as { id: string }[];
    const view = startCli(["view", ...against(), "--port", "0"]);
    try {
      const base = /at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(await view.waitFor(/at http:\/\/127\.0\.0\.1:\d+\//))![1];
      const index = await (await fetch(base)).text();
      expect(index).toContain(`href="/runs/${run.id}"`);
      expect(index).toContain(`--url ${server.url} --mode shift --runs 2 -- node`);
      const report = await (await fetch(new URL(`/runs/${run.id}`, base))).text();
      // The careful agent passed every trial: its calls are there, each passed trial's closed until opened.
      expect(report).toMatch(/<details class="passed-trace" id="p-1-1"><summary>Run 1 · SELF-1 · passed · \d+ calls<\/summary>/);
      expect(report).toContain('<table class="trace">');
    } finally {
      view.child.kill("SIGINT");
      await view.exited;
    }
  });

  it("a run given its token with --token prints a replay line that names WORLDS_TOKEN, never the token, and reruns the task", { timeout: 240_000 }, async () => {
    const liar = ["node", join(ROOT, "examples", "agents", "liar.mjs")];
    const first = await runCli(["passk", "--tasks", TASKS, ...against(), "--task", "SELF-1", "--runs", "1", "--json", "--", ...liar], { timeoutMs: 180_000 });
    expect(first.code, first.stderr).toBe(1);
    const replay = (JSON.parse(first.stdout) as Results).crash_test.worst_task!.replay;
    expect(replay).toBe(`WORLDS_TOKEN=… worlds passk --tasks ${TASKS} --url ${server.url} --task SELF-1 --runs 1 -- ${liar.join(" ")}`);
    expect(first.stdout).not.toContain(server.token);
    // As printed, with the variable it names set: the same task, the same verdict.
    const [assignment, worlds, ...args] = replay.split(" ");
    expect([assignment, worlds]).toEqual(["WORLDS_TOKEN=…", "worlds"]);
    const again = await runCli([...args.slice(0, args.indexOf("--")), "--json", ...args.slice(args.indexOf("--"))], { env: { WORLDS_TOKEN: server.token }, timeoutMs: 180_000 });
    expect(again.code, again.stderr).toBe(1);
    expect((JSON.parse(again.stdout) as Results).runs[0]!.worlds.map((w) => [w.task, w.verdict])).toEqual([["SELF-1", "false_claim"]]);
  });

  it("refuses --server auto (a fresh server has no runs), a missing server or token, and an unknown run", async () => {
    const auto = await runCli(["runs", "list", "--server", "auto"]);
    expect(auto.code).toBe(2);
    expect(auto.stderr).toContain("--server auto starts an empty server with no runs to read");
    const noUrl = await runCli(["runs", "list"]);
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toContain("pass --url or set WORLDS_URL");
    const noToken = await runCli(["runs", "show", "run_AAAAAAAAAAAAAAAA", "--url", server.url]);
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toContain("pass --token or set WORLDS_TOKEN");
    const unknown = await runCli(["runs", "show", "run_AAAAAAAAAAAAAAAA", ...against()]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("No run 'run_AAAAAAAAAAAAAAAA'");
  });
});
