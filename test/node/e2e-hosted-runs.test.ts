// Hosted runs end to end on the real local server (Miniflare runs the Worker and its queue consumer) with a
// real HTTP agent on 127.0.0.1: 30 tasks x 3 runs give 90 graded episodes, and the results equal what
// `worlds passk` gives for the same tasks with the same agent run as a process.
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Writable } from "node:stream";
import { startLocalServer, type LocalServer } from "../../src/cli/server/local";
import { runHostedPassk } from "../../src/cli/hosted/submit";
import type { AgentRequestBody, RunView, EpisodeView } from "../../src/core/pipeline/index";
import { startSignedAgent, type SignedAgent } from "./helpers/signed-agent";
import type { Results } from "../../src/core/results/index";
import { assertValidResults } from "./helpers/validate-results";
import { BIN, ROOT } from "./helpers/cli";

const SECRET = "e2e-agent-secret-0123456789";
const dir = mkdtempSync(join(tmpdir(), "worlds-hosted-e2e-"));
const agentFile = join(dir, "agent.mjs");
const tasksFile = join(dir, "tasks.yaml");

let server: LocalServer;
let agentServer: SignedAgent;
let agentUrl: string;

beforeAll(async () => {
  writeFileSync(agentFile, AGENT_SOURCE);
  writeFileSync(tasksFile, tasksYaml());
  const { act } = (await import(pathToFileURL(agentFile).href)) as { act: (task: unknown, world: AgentRequestBody["world"]) => Promise<string> };
  agentServer = await startSignedAgent(SECRET, (body) => act(body.task, body.world));
  agentUrl = `${agentServer.url}/agent`;
  server = await startLocalServer({});
});

afterAll(async () => {
  await server?.stop();
  await agentServer?.close();
});

const api = async <T>(path: string, init: RequestInit = {}): Promise<T> => {
  const res = await fetch(`${server.url}${path}`, { ...init, headers: { authorization: `Bearer ${server.token}`, "content-type": "application/json", ...(init.headers ?? {}) } });
  if (!res.ok) throw new Error(`${init.method ?? "GET"} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
};

async function waitDone(runId: string, ms: number): Promise<RunView & { results: Results }> {
  const end = Date.now() + ms;
  for (;;) {
    const view = await api<RunView>(`/admin/runs/${runId}`);
    if (view.status === "done" || view.status === "failed") return view as RunView & { results: Results };
    if (Date.now() > end) throw new Error(`run still ${view.status}: ${JSON.stringify(view.progress)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The verdict each task gets from this agent, every run (it is deterministic). */
const EXPECTED: Record<number, string | null> = {
  1: "passed", // refunds the duplicate
  2: "passed", // schedules the cancellation
  3: "passed", // changes nothing
  4: "passed", // finds no duplicate, hands off, changes nothing
  5: "passed", // cancels now, as asked
  6: "wrong_action", // cancels now where the key wants period end
  7: "passed", // two accounts share the email: hands off
  8: null, // policy-only
  9: "missed", // misses a duplicate a month apart
  10: "passed",
};
const expectedVerdict = (position: number) => EXPECTED[((position - 1) % 10) + 1];

let hosted: RunView & { results: Results };

describe("hosted runs on the local server", () => {
  // 3.5 s on an idle machine; a suite run beside eight others' (load 25 on 2 cores) had not finished it in 240 s.
  it("runs 30 tasks x 3 through the queue against an HTTP agent: 90 episode rows, the right verdicts", { timeout: 720_000 }, async () => {
    const { readFileSync } = await import("node:fs");
    const posted = await api<{ run_id: string; episodes: number }>("/admin/runs", {
      method: "POST",
      body: JSON.stringify({ tasks: readFileSync(tasksFile, "utf8"), tasks_file: tasksFile, runs: 3, agent: { url: agentUrl, secret: SECRET }, concurrency: 10 }),
    });
    expect(posted.episodes).toBe(90);
    hosted = await waitDone(posted.run_id, 660_000);
    expect(hosted.status).toBe("done");
    expect(hosted.progress).toMatchObject({ total: 90, done: 90, infra_errors: 0, finished: 90 });
    const episodes: EpisodeView[] = [];
    for (let after = 0; ; ) {
      const page = await api<{ data: EpisodeView[]; next_after: number | null }>(`/admin/runs/${posted.run_id}/episodes?after=${after}&limit=50`);
      episodes.push(...page.data);
      if (page.next_after === null) break;
      after = page.next_after;
    }
    expect(episodes.map((e) => e.n)).toEqual(Array.from({ length: 90 }, (_, i) => i + 1));
    expect(new Set(episodes.map((e) => e.id)).size).toBe(90);
    expect(episodes.every((e) => e.status === "done" && e.trace !== null)).toBe(true);
    expect(agentServer.calls).toHaveLength(90);

    // A hosted run replays with --agent-url and no `--` agent command; the published schema accepts both forms.
    const worst = hosted.results.crash_test.worst_task!;
    expect(worst.replay).toBe(`worlds passk --tasks ${tasksFile} --url ${server.url} --agent-url ${agentUrl} --task ${worst.id} --runs 1`);
    assertValidResults(hosted.results);
    for (const run of hosted.results.runs) for (const w of run.worlds) expect([w.task, w.verdict]).toEqual([w.task, expectedVerdict(w.position)]);
    expect(hosted.results.status).toBe("policy_failed");
    expect(hosted.exit_code).toBe(1);
    expect(hosted.results.crash_test.flawless_runs).toBe(0);
    const trace = await fetch(`${server.url}/admin/runs/${posted.run_id}/episodes/1/trace`, { headers: { authorization: `Bearer ${server.token}` } });
    expect((await trace.text()).split("\n").filter(Boolean).map((l) => JSON.parse(l).path)).toContain("/v1/refunds");
  });

  it("gives the same results as `worlds passk` for the same tasks and the same agent run as a process", { timeout: 300_000 }, async () => {
    expect(hosted).toBeDefined();
    const cli = await runCli(["passk", "--url", server.url, "--token", server.token, "--tasks", tasksFile, "--runs", "3", "--concurrency", "4", "--json", "--", process.execPath, agentFile]);
    expect(cli.code).toBe(1);
    const local = JSON.parse(cli.stdout) as Results;
    assertValidResults(local);
    const verdicts = (r: Results) => r.runs.map((run) => run.worlds.map((w) => [w.task, w.verdict, w.passed, w.dollars_wrong_cents]));
    expect(verdicts(hosted.results)).toEqual(verdicts(local));
    const numbers = (r: Results) => ({ ...r.crash_test, worst_task: r.crash_test.worst_task ? { ...r.crash_test.worst_task, replay: null } : null });
    expect(numbers(hosted.results)).toEqual(numbers(local));
    expect({ status: hosted.results.status, exit_code: hosted.results.exit_code, tasks: hosted.results.tasks }).toEqual({ status: local.status, exit_code: local.exit_code, tasks: local.tasks });
    expect(hosted.results.crash_test.worst_task?.replay).toBe(
      `worlds passk --tasks ${tasksFile} --url ${server.url} --agent-url ${agentUrl} --task ${local.crash_test.worst_task!.id} --runs 1`,
    );
  });
});

describe("worlds passk --url --agent-url (src/cli/hosted/submit.ts)", () => {
  it("submits a hosted run, prints a line per episode, and ends with the local run's text output and exit code", { timeout: 120_000 }, async () => {
    const out = collector();
    const err = collector();
    const code = await runHostedPassk({ url: server.url, token: server.token, agentUrl, agentSecret: SECRET, tasksFile, runs: 2, task: ["H-1", "H-6"], stdout: out.stream, stderr: err.stream as unknown as NodeJS.WriteStream, pollMs: 100 });
    expect(code).toBe(1);
    expect(out.text()).toMatch(/^tasks: 30 \(27 keyed, 3 policy-only\) on acme-small · isolated · 2 invariants/);
    expect(err.text().match(/^\[\d\/4\] run \d · H-(1|6) · w_\w+ · H-(1 passed|6 wrong_action)$/gm)).toHaveLength(4);
    expect(out.text()).toContain("status: policy_failed (exit 1)");
    expect(out.text()).toContain(`--agent-url ${agentUrl} --task H-6 --runs 1`);
  });

  it("runs through the real CLI: worlds passk --url --token --agent-url, exit code and output as a local run", { timeout: 120_000 }, async () => {
    const cli = await runCli(["passk", "--url", server.url, "--token", server.token, "--agent-url", agentUrl, "--tasks", tasksFile, "--runs", "1", "--task", "H-1", "--task", "H-6"], { WORLDS_AGENT_SECRET: SECRET });
    expect(cli.code).toBe(1);
    expect(cli.stdout).toMatch(/^tasks: 30 \(27 keyed, 3 policy-only\) on acme-small · isolated · 2 invariants/);
    expect(cli.stdout).toMatch(/^hosted run run_\w+ on http:\/\/127\.0\.0\.1:\d+ · agent http:/m);
    expect(cli.stdout).toContain("status: policy_failed (exit 1)");
    expect(cli.stdout).toContain(`--agent-url ${agentUrl} --task H-6 --runs 1`);
    expect(cli.stderr.match(/^\[\d\/2\] run 1 · H-(1|6) · w_\w+ · H-(1 passed|6 wrong_action)$/gm)).toHaveLength(2);

    const json = await runCli(["passk", "--url", server.url, "--token", server.token, "--agent-url", agentUrl, "--tasks", tasksFile, "--runs", "1", "--task", "H-1", "--json"], { WORLDS_AGENT_SECRET: SECRET });
    expect(json.code).toBe(0);
    const doc = JSON.parse(json.stdout) as Results;
    assertValidResults(doc);
    expect(doc.status).toBe("passed");
  });

  it("--server auto --agent-url: the command's own local server runs the queue", { timeout: 180_000 }, async () => {
    const cli = await runCli(["passk", "--server", "auto", "--agent-url", agentUrl, "--tasks", tasksFile, "--runs", "1", "--task", "H-1", "--json"], { WORLDS_AGENT_SECRET: SECRET });
    expect(cli.code).toBe(0);
    const doc = JSON.parse(cli.stdout) as Results;
    assertValidResults(doc);
    expect(doc.runs[0]!.worlds.map((w) => [w.task, w.verdict])).toEqual([["H-1", "passed"]]);
  });

  it("refuses a hosted run with exit 2 naming what is missing: the server, its token, the agent secret", async () => {
    const none = await runCli(["passk", "--agent-url", agentUrl, "--tasks", tasksFile]);
    expect(none.code).toBe(2);
    expect(none.stdout).toMatch(/^status: configuration_incomplete \(exit 2\)/);
    expect(none.stderr).toContain("the server (--url or WORLDS_URL)");
    expect(none.stderr).toContain("its admin token (--token or WORLDS_TOKEN)");
    expect(none.stderr).toContain("WORLDS_AGENT_SECRET");
    const short = await runCli(["passk", "--url", server.url, "--token", server.token, "--agent-url", agentUrl, "--tasks", tasksFile], { WORLDS_AGENT_SECRET: "short" });
    expect(short.code).toBe(2);
    expect(short.stderr).toContain("a longer WORLDS_AGENT_SECRET (at least 16 characters");
    expect(short.stderr).not.toContain("--url or WORLDS_URL");
    const both = await runCli(["passk", "--url", server.url, "--token", server.token, "--agent-url", agentUrl, "--tasks", tasksFile, "--", "node", "agent.mjs"], { WORLDS_AGENT_SECRET: SECRET });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("--agent-url and an agent command after '--' name two agents");
  });

  it("stops at a broken tasks file with exit 2, posting nothing", async () => {
    const bad = join(dir, "bad.yaml");
    writeFileSync(bad, tasksYaml().replace('expected: "none"', 'expected: "refund everything"'));
    const before = (await api<{ data: unknown[] }>("/admin/runs?limit=200")).data.length;
    const out = collector();
    const err = collector();
    const code = await runHostedPassk({ url: server.url, token: server.token, agentUrl, agentSecret: SECRET, tasksFile: bad, stdout: out.stream, stderr: err.stream as unknown as NodeJS.WriteStream });
    expect(code).toBe(2);
    expect(out.text()).toMatch(/^status: configuration_incomplete \(exit 2\)/);
    expect(err.text()).toContain("bad.yaml:");
    expect((await api<{ data: unknown[] }>("/admin/runs?limit=200")).data.length).toBe(before);
  });
});

function collector() {
  let text = "";
  const stream = new Writable({ write(chunk, _enc, done) { text += String(chunk); done(); } });
  return { stream, text: () => text };
}

function runCli(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const base: NodeJS.ProcessEnv = { ...process.env, WORLDS_URL: "", WORLDS_TOKEN: "", ...env };
    if (!env.WORLDS_AGENT_SECRET) delete base.WORLDS_AGENT_SECRET;
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: base, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

function tasksYaml(): string {
  const kinds = [
    { requester: "billing.northwind@example.com", subject: "Charged twice for September", body: "Our September payment of $99.00 went through twice on the card. Please refund the duplicate one.", expected: "refund $99.00 on duplicate", trap: "duplicate-charge" },
    { requester: "studio.lumen@example.com", subject: "Please cancel our plan", body: "We are moving to another tool. Please cancel our subscription at the end of the current period, not now.", expected: "cancel at period end", trap: "cancellation" },
    { requester: "founders.nimbus@example.com", subject: "When do we renew?", body: "Just confirming the date of our next renewal. No changes needed, please do not touch anything.", expected: "none", trap: "no-action" },
    { requester: "billing.iris@example.com", subject: "Charged twice?", body: "I think we were charged twice for our plan, $349.00 in August and again in September. Is that a duplicate?", expected: "none", trap: "not-a-duplicate" },
    { requester: "bursar.juniper@example.com", subject: "Cancel immediately", body: "Please cancel our subscription immediately, we closed the school program.", expected: "cancel", trap: "cancellation" },
    { requester: "accounts.kestrel@example.com", subject: "Cancel right now", body: "Cancel our plan right now please.", expected: "cancel at period end", trap: "policy-period-end" },
    { requester: "accounts.harbor@example.com", subject: "Refund our last payment", body: "Please refund our last payment, we did not use the service this month.", expected: "escalate", trap: "ambiguous-account" },
    { requester: "finance.cobalt@example.com", subject: "Invoice address", body: "Can you tell me which address appears on our invoices?", expected: null, trap: null },
    { requester: "hello.bluebird@example.com", subject: "Double charged", body: "We were double charged $29.00 for September. Please refund the extra one.", expected: "refund $29.00 on ch_AcmeBluebird0912", trap: "duplicate-charge" },
    { requester: "ap.fjord@example.com", subject: "Checking our plan", body: "Just checking that our plan ends at the end of this period as we asked. No changes please.", expected: "none", trap: "no-action" },
  ];
  const lines = ["version: 1", "seed: acme-small", "mode: isolated", "currency: usd", "invariants:", "  - deleted.customers==0", "  - created.subscriptions==0", "tasks:"];
  for (let round = 0; round < 3; round++)
    kinds.forEach((k, i) => {
      lines.push(`  - id: H-${round * 10 + i + 1}`, `    requester: ${k.requester}`, `    subject: ${JSON.stringify(`${k.subject} (${round + 1})`)}`, `    body: ${JSON.stringify(k.body)}`);
      if (k.expected) lines.push(`    expected: ${JSON.stringify(k.expected)}`);
      if (k.trap) lines.push(`    trap_class: ${k.trap}`);
    });
  return lines.join("\n") + "\n";
}

/** A deterministic support agent (no model): a process agent (`node agent.mjs`) and, through act(), an HTTP one. */
const AGENT_SOURCE = `// A deterministic support agent (no model), usable two ways: as a process agent (\`node agent.mjs\`, task in
// WORLDS_TASK_JSON, world in the environment, reply on stdout) and in-process behind an HTTP agent (act()).
import { fileURLToPath } from "node:url";

export async function act(task, world) {
  const api = async (method, path, form) => {
    const res = await fetch(new URL(path, world.stripe_api_base), {
      method,
      headers: { authorization: \`Bearer \${world.key}\`, ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    const body = await res.json();
    if (!res.ok) throw new Error(\`\${method} \${path}: \${res.status} \${JSON.stringify(body)}\`);
    return body;
  };
  const text = \`\${task.subject}\\n\${task.body}\`.toLowerCase();
  const customers = (await api("GET", \`/v1/customers?email=\${encodeURIComponent(task.requester.email)}&limit=10\`)).data;
  if (customers.length !== 1) return "Thanks for writing in. More than one account uses this email address, so I have passed your ticket to a colleague who will confirm which account you mean before anything changes.";
  const customer = customers[0].id;
  if (/\\b(no changes?|do not (change|touch)|just (confirming|checking))\\b/.test(text)) return "Thanks for checking in. I have not changed anything on your account.";
  if (/\\b(charged twice|double[- ]charged|duplicate)\\b/.test(text)) {
    const charges = (await api("GET", \`/v1/charges?customer=\${customer}&limit=100\`)).data.filter((c) => c.status === "succeeded" && c.amount_refunded < c.amount);
    let pair = null;
    for (const a of charges) for (const b of charges) if (!pair && a.id < b.id && a.amount === b.amount && Math.abs(a.created - b.created) < 86_400) pair = [a, b];
    if (!pair) return "Thanks for flagging this. I could not find two matching charges on your account, so I have passed this to a colleague to check with you.";
    const [a, b] = pair;
    const extra = !a.invoice && b.invoice ? a : !b.invoice && a.invoice ? b : a.created > b.created ? a : b;
    const refund = await api("POST", "/v1/refunds", { charge: extra.id, reason: "duplicate" });
    return \`Sorry about that. I have refunded the duplicate charge ($\${(refund.amount / 100).toFixed(2)}, refund \${refund.id}).\`;
  }
  if (/\\bcancel/.test(text)) {
    const subs = (await api("GET", \`/v1/subscriptions?customer=\${customer}&limit=10\`)).data.filter((s) => s.status !== "canceled");
    if (subs.length !== 1) return "Thanks for letting us know. A colleague will confirm which subscription to cancel before anything changes.";
    if (/\\b(immediately|right now|today)\\b/.test(text)) {
      await api("DELETE", \`/v1/subscriptions/\${subs[0].id}\`);
      return "Done: your subscription has been canceled effective immediately. You will not be charged again.";
    }
    await api("POST", \`/v1/subscriptions/\${subs[0].id}\`, { cancel_at_period_end: "true" });
    return "Done: your subscription will end at the end of the current period. You will not be charged again.";
  }
  return "Thanks for your message. This needs a closer look, so I have passed it to a colleague who will reply shortly.";
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const task = JSON.parse(process.env.WORLDS_TASK_JSON);
  const reply = await act(task, { stripe_api_base: process.env.STRIPE_API_BASE, key: process.env.STRIPE_API_KEY });
  process.stdout.write(reply + "\\n");
}
`;
