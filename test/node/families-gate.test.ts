// `worlds family gate` and `worlds passk --family` end to end through the real CLI and local server, with agents
// whose pass rates are known by construction: test/fixtures/families/keyed-agent.mjs solves exactly the first
// round(share x runs) episodes of each tier (replaying the gold chain) and only looks in the others. Also the
// reference agents (careful passes tier 0, reckless fails it) and the built-in model agent on the scripted model.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadScript } from "../../src/core/models/scripted/index";
import { startScriptedServer, type ScriptedServer } from "../../src/cli/models/scripted-server";
import { killAllStarted, ROOT, runCli } from "./helpers/cli";
import { assertValidResults } from "./helpers/validate-results";
import { verifyAgentRequest } from "../../src/core/pipeline/signature";

const FIXTURE = join(ROOT, "test", "fixtures", "families", "mini_refunds");
const AGENT = join(ROOT, "test", "fixtures", "families", "keyed-agent.mjs");
const dirs: string[] = [];
let model: ScriptedServer;

beforeAll(async () => {
  const loaded = loadScript(readFileSync(join(ROOT, "test/fixtures/models/model-agent.script.yaml"), "utf8"), "model-agent.script.yaml");
  if (!loaded.ok) throw new Error(loaded.problems.join("\n"));
  model = await startScriptedServer(loaded.script);
});

afterAll(async () => {
  killAllStarted();
  await model?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function family(): { dir: string; claims: string; out: string } {
  const parent = mkdtempSync(join(tmpdir(), "worlds-gate-"));
  dirs.push(parent);
  const dir = join(parent, "mini_refunds");
  cpSync(FIXTURE, dir, { recursive: true });
  const claims = join(parent, "claims");
  mkdirSync(claims);
  return { dir, claims, out: parent };
}

type Rate = { solver: string; model: string; k: number; value: number; date: string; run?: string; results_sha256?: string; forced?: boolean };
const rates = (dir: string, tier: string): Rate[] => (parse(readFileSync(join(dir, tier, "tier.yaml"), "utf8")) as { pass_rates: Rate[] }).pass_rates;

async function gate(f: ReturnType<typeof family>, tier: string, runs: number, shares: Record<string, number>, extra: string[] = []) {
  const res = await runCli(["family", "gate", join(f.dir, tier), "--server", "auto", "--runs", String(runs), ...extra, "--", "node", AGENT], {
    env: { FAMILY_DIR: f.dir, FAMILY_CLAIMS: f.claims, FAMILY_RUNS: String(runs), FAMILY_SHARES: JSON.stringify(shares) },
    timeoutMs: 400_000,
  });
  rmSync(f.claims, { recursive: true, force: true });
  mkdirSync(f.claims);
  return res;
}

describe("family gate with agents of known pass rates", () => {
  it("refuses fewer than 20 runs unless forced", async () => {
    const f = family();
    const res = await gate(f, "mini_refunds_t0", 5, {});
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("--runs 5 is fewer than the 20 a pass rate needs; add --force to run it anyway (the recorded rate is marked forced)");
  });

  it("passes tier 0 at 85% over the default 20 runs and records it; then fails tier 1 at 85% (band and falling rates), and passes it at 70%", async () => {
    const f = family();
    const json = join(f.out, "t0.json");
    const t0 = await gate(f, "mini_refunds_t0", 20, { mini_refunds_t0: 0.85 }, ["--json-file", json]);
    expect(t0.code, t0.stdout + t0.stderr).toBe(0);
    expect(t0.stdout).toMatch(/t0 [█░·]+ +85%  64%-94\.8%  \[>= 80%\]\n/);
    expect(t0.stdout).toContain("status: passed (exit 0) — every tier in its band, rates falling, none at 0% or 100%: tier 0 85%");
    const doc = JSON.parse(readFileSync(json, "utf8"));
    assertValidResults(doc);
    expect(doc.crash_test.tasks[0]).toMatchObject({ id: "mini_refunds_t0", trials: 20, passed: 17 });
    expect(rates(f.dir, "mini_refunds_t0")).toEqual([{ solver: "command", model: `node ${AGENT}`, k: 20, value: 0.85, date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), run: expect.stringMatching(/^gate-\d{4}-\d{2}-\d{2}-[0-9a-f]{12}$/), results_sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    // The run's results are kept beside the tiers, and validate finds them.
    const run = rates(f.dir, "mini_refunds_t0")[0].run!;
    expect(JSON.parse(readFileSync(join(f.dir, "runs", `${run}.json`), "utf8")).crash_test.tasks[0]).toMatchObject({ id: "mini_refunds_t0", trials: 20, passed: 17 });
    const checked = await runCli(["family", "validate", f.dir, "--offline"]);
    expect(checked.code, checked.stdout).toBe(0);
    expect(checked.stdout).toContain(`calibrated 85% (command node ${AGENT}, k 20, run ${run})`);

    const high = await gate(f, "mini_refunds_t1", 20, { mini_refunds_t1: 0.85 });
    expect(high.code, high.stdout + high.stderr).toBe(1);
    expect(high.stdout).toContain("tier 1 passed 17 of 20: 85% (95% Wilson 64%-94.8%), outside its band 60%-80%");
    expect(high.stdout).toContain("pass rates must fall from tier to tier: tier 1 85% (95% Wilson 64%-94.8%) is not below tier 0 85% (95% Wilson 64%-94.8%) (recorded)");
    expect(high.stdout).toMatch(/status: policy_failed \(exit 1\)/);

    const right = await gate(f, "mini_refunds_t1", 20, { mini_refunds_t1: 0.7 }, ["--no-record"]);
    expect(right.code, right.stdout + right.stderr).toBe(0);
    // The failed gate still recorded its measurement; --no-record left it as it was.
    expect(rates(f.dir, "mini_refunds_t1").map((r) => r.value)).toEqual([0.85]);
  }, 900_000);

  it("a forced short run is marked, 100% and 0% fail, and the whole family's falling rates are checked together", async () => {
    const f = family();
    const full = await gate(f, "mini_refunds_t0", 4, { mini_refunds_t0: 1 }, ["--force"]);
    expect(full.code, full.stdout + full.stderr).toBe(1);
    expect(full.stdout).toContain("tier 0 is at 100%: every episode passed, so the tier tells nothing apart");
    expect(rates(f.dir, "mini_refunds_t0")).toEqual([expect.objectContaining({ k: 4, value: 1, forced: true })]);
    const all = await gate(f, ".", 4, { mini_refunds_t0: 0.75, mini_refunds_t1: 0.75, mini_refunds_t2: 0 }, ["--force", "--no-record"]);
    expect(all.code, all.stdout + all.stderr).toBe(1);
    expect(all.stdout).toContain("tier 0 passed 3 of 4: 75%");
    expect(all.stdout).toContain("tier 2 is at 0%: no episode passed");
    expect(all.stdout).toContain("tier 1 75% (95% Wilson 30.1%-95.4%) is not below tier 0 75%");
    expect(all.stdout).toContain("replay: worlds family gate");
  }, 600_000);
});

describe("family gate's order and its refusal of a broken family", () => {
  it("tier 1 waits for a recorded tier 0 unless forced (then marked), and a family failing validate is not gated", async () => {
    const f = family();
    const early = await gate(f, "mini_refunds_t1", 20, { mini_refunds_t1: 0.7 });
    expect(early.code, early.stdout + early.stderr).toBe(2);
    expect(early.stderr).toContain(`tier 1 is gated only after tier 0 has a recorded pass rate for this agent (node ${AGENT}); gate mini_refunds_t0 first, or add --force (the recorded rate is marked forced)`);
    expect(rates(f.dir, "mini_refunds_t1")).toEqual([]);
    const forced = await gate(f, "mini_refunds_t1", 20, { mini_refunds_t1: 0.7 }, ["--force"]);
    expect(forced.code, forced.stdout + forced.stderr).toBe(0);
    expect(rates(f.dir, "mini_refunds_t1")).toEqual([expect.objectContaining({ k: 20, value: 0.7, forced: true })]);

    const broken = family();
    writeFileSync(join(broken.dir, "mini_refunds_t0", "tier.yaml"), readFileSync(join(broken.dir, "mini_refunds_t0", "tier.yaml"), "utf8").replace(/verify:\n[\s\S]*$/, "verify:\n  - deleted.customers==0\n  - replied\n"));
    const refused = await gate(broken, "mini_refunds_t0", 20, { mini_refunds_t0: 0.85 });
    expect(refused.code, refused.stdout + refused.stderr).toBe(2);
    expect(refused.stderr).toContain("mini_refunds_t0 [null_agents]: the reply-only agent (no call, then a plausible reply) passes verify");
    expect(refused.stderr).toMatch(/the family fails validate \(\d+ problems?\); fix them first: worlds family validate/);
    expect(rates(broken.dir, "mini_refunds_t0")).toEqual([]);
  }, 900_000);
});

describe("calibration without a model key: the shipped families' scripted solvers", () => {
  it("parcel_returns' solver falls through every band and its recorded curve repeats; a solver whose rates rise fails monotonicity", async () => {
    const parent = mkdtempSync(join(tmpdir(), "worlds-gate-solver-"));
    dirs.push(parent);
    const dir = join(parent, "parcel_returns");
    cpSync(join(ROOT, "packs", "families", "parcel_returns"), dir, { recursive: true });
    const script = readFileSync(join(dir, "solver.script.yaml"), "utf8");
    const serve = async (text: string) => {
      const loaded = loadScript(text, "solver.script.yaml");
      if (!loaded.ok) throw new Error(loaded.problems.join("\n"));
      return startScriptedServer(loaded.script);
    };
    const solver = await serve(script);
    try {
      const json = join(parent, "solver.json");
      const res = await runCli(["family", "gate", dir, "--server", "auto", "--model", "openai:parcel-solver", "--json-file", json], { env: { OPENAI_BASE_URL: solver.env.OPENAI_BASE_URL, OPENAI_API_KEY: "scripted" }, timeoutMs: 600_000 });
      expect(res.code, res.stdout + res.stderr).toBe(0);
      expect(res.stdout).toContain("status: passed (exit 0) — every tier in its band, rates falling, none at 0% or 100%: tier 0 85%, tier 1 65%, tier 2 55%, tier 3 35%, tier 4 5%");
      // The same script on a fresh server gives the same episodes: the curve recorded in the package.
      const shipped = (n: number) => rates(join(ROOT, "packs", "families", "parcel_returns"), `parcel_returns_t${n}`)[0].value;
      expect([0, 1, 2, 3, 4].map((n) => rates(dir, `parcel_returns_t${n}`).at(-1)!.value)).toEqual([0, 1, 2, 3, 4].map(shipped));
      const doc = JSON.parse(readFileSync(json, "utf8"));
      expect(doc.crash_test.tasks.map((t: { passed: number }) => t.passed)).toEqual([17, 13, 11, 7, 1]);
    } finally {
      await solver.close();
    }
    // Tier 2 made easier than tier 1: out of its band and not below tier 1.
    const rising = await serve(script.replace(/(name: t2-solves\n  p: )0\.5/, "$10.95"));
    try {
      const res = await runCli(["family", "gate", dir, "--server", "auto", "--no-record", "--model", "openai:parcel-solver"], { env: { OPENAI_BASE_URL: rising.env.OPENAI_BASE_URL, OPENAI_API_KEY: "scripted" }, timeoutMs: 600_000 });
      expect(res.code, res.stdout + res.stderr).toBe(1);
      expect(res.stdout).toMatch(/tier 2 passed \d+ of 20: \d+(\.\d)?% \(95% Wilson [\d.]+%-[\d.]+%\), outside its band 40%-60%/);
      expect(res.stdout).toMatch(/pass rates must fall from tier to tier: tier 2 \d+(\.\d)?% .* is not below tier 1 65%/);
    } finally {
      await rising.close();
    }
  }, 900_000);
});

describe("passk --family and the reference agents", () => {
  it("careful passes tier 0 and nothing above it; the report shows the curve across tiers", async () => {
    const f = family();
    const json = join(f.out, "careful.json");
    const res = await runCli(["passk", "--family", f.dir, "--server", "auto", "--runs", "2", "--json-file", json, "--report", join(f.out, "r.html"), "--", "node", "examples/agents/careful.mjs"], { timeoutMs: 300_000 });
    expect(res.code, res.stdout + res.stderr).toBe(1);
    expect(res.stdout).toMatch(/t0 █+ +100%/);
    expect(res.stdout).toMatch(/t1 [░·]+ +0%/);
    const doc = JSON.parse(readFileSync(json, "utf8"));
    assertValidResults(doc);
    expect(doc.crash_test.tasks.map((t: { id: string; passed: number }) => [t.id, t.passed])).toEqual([["mini_refunds_t0", 2], ["mini_refunds_t1", 0], ["mini_refunds_t2", 0]]);
    expect(doc.crash_test.by_trap_class.map((c: { trap_class: string }) => c.trap_class)).toEqual(["tier 0", "tier 1", "tier 2"]);
    expect(doc.crash_test.worst_task.replay).toMatch(/^worlds passk --family .* --task mini_refunds_t1 --runs 1 -- node examples\/agents\/careful\.mjs$/);
  }, 400_000);

  it("reckless fails tier 0: it refunds every charge", async () => {
    const f = family();
    const res = await runCli(["passk", "--family", f.dir, "--task", "mini_refunds_t0", "--server", "auto", "--runs", "1", "--", "node", "examples/agents/reckless.mjs"], { timeoutMs: 300_000 });
    expect(res.code, res.stdout + res.stderr).toBe(1);
    expect(res.stdout).toContain("verify sum(created.refunds.amount)==9900 failed: the sum over 3 objects is 29700");
  }, 400_000);

  it("the built-in model agent on the scripted model server solves tier 0 every time", async () => {
    const f = family();
    const res = await runCli(["family", "gate", join(f.dir, "mini_refunds_t0"), "--server", "auto", "--model", "openai:support"], { env: { OPENAI_BASE_URL: model.env.OPENAI_BASE_URL, OPENAI_API_KEY: "sk-test-secret" }, timeoutMs: 400_000 });
    expect(res.code, res.stdout + res.stderr).toBe(1);
    expect(res.stdout).toContain("tier 0 is at 100%");
    expect(res.stdout + res.stderr).not.toContain("sk-test-secret");
    expect(rates(f.dir, "mini_refunds_t0")).toEqual([expect.objectContaining({ solver: "model", model: "openai:support", k: 20, value: 1 })]);
  }, 400_000);
});

describe("a tools-world family with the literal tools agent (packs/families/parcel_returns)", () => {
  function toolsFamily(): string {
    const parent = mkdtempSync(join(tmpdir(), "worlds-gate-tools-"));
    dirs.push(parent);
    const dir = join(parent, "parcel_returns");
    cpSync(join(ROOT, "packs", "families", "parcel_returns"), dir, { recursive: true });
    return dir;
  }
  const LITERAL = ["node", "examples/agents/tools-literal.mjs"];

  it("gate: the careful literal agent solves tier 0 in all 20 episodes (so the gate fails it at 100%); the reckless one (every write twice) at 0%", async () => {
    const dir = toolsFamily();
    const careful = await runCli(["family", "gate", join(dir, "parcel_returns_t0"), "--server", "auto", "--", ...LITERAL], { timeoutMs: 600_000 });
    expect(careful.code, careful.stdout + careful.stderr).toBe(1);
    expect(careful.stdout).toMatch(/t0 █+ +100%  83\.9%-100%  \[>= 80%\]/);
    expect(careful.stdout).toContain("tier 0 is at 100%: every episode passed, so the tier tells nothing apart");
    expect(rates(dir, "parcel_returns_t0")).toContainEqual(expect.objectContaining({ solver: "command", model: LITERAL.join(" "), k: 20, value: 1 }));
    const reckless = await runCli(["family", "gate", join(dir, "parcel_returns_t0"), "--server", "auto", "--runs", "4", "--force", "--", ...LITERAL, "--twice"], { timeoutMs: 600_000 });
    expect(reckless.code, reckless.stdout + reckless.stderr).toBe(1);
    expect(reckless.stdout).toMatch(/tier 0 passed 0 of 4: 0% \(95% Wilson 0%-4\d(\.\d)?%\), outside its band >= 80%/);
    expect(reckless.stdout).toContain("verify count(created.records)==0 failed: the count is 1");
  }, 900_000);

  it("passk --family: careful passes tier 0 and nothing above it, the curve across the five tiers", async () => {
    const dir = toolsFamily();
    const json = join(dir, "..", "tools.json");
    const report = join(dir, "..", "tools.html");
    const res = await runCli(["passk", "--family", dir, "--server", "auto", "--runs", "1", "--json-file", json, "--report", report, "--", ...LITERAL], { timeoutMs: 600_000 });
    expect(res.code, res.stdout + res.stderr).toBe(1);
    expect(res.stdout).toMatch(/t0 █+ +100%/);
    expect(res.stdout).toMatch(/t4 [░·]+ +0%/);
    expect(res.stdout).toContain("parcel_returns_t1: wrong_state — verify records.rec_refund.status==done failed");
    const doc = JSON.parse(readFileSync(json, "utf8"));
    assertValidResults(doc);
    expect(doc.status).toBe("policy_failed");
    expect(doc.crash_test.tasks.map((t: { id: string; passed: number }) => [t.id, t.passed])).toEqual([["parcel_returns_t0", 1], ["parcel_returns_t1", 0], ["parcel_returns_t2", 0], ["parcel_returns_t3", 0], ["parcel_returns_t4", 0]]);
    // The HTML report draws the curve across the tiers: a point per tier at its rate, in tier order.
    const html = readFileSync(report, "utf8");
    const points = [...html.matchAll(/<circle class="point" data-class="(tier \d)" cx="[\d.]+" cy="([\d.]+)"/g)].map((m) => [m[1], m[2]]);
    expect(points).toEqual([["tier 0", "18.0"], ["tier 1", "196.0"], ["tier 2", "196.0"], ["tier 3", "196.0"], ["tier 4", "196.0"]]);
  }, 600_000);
});

describe("family gate with an HTTP agent (--agent-url)", () => {
  const SECRET = "family-gate-secret-0123456789";
  let server: Server;
  let url = "";
  const refused: string[] = [];

  beforeAll(async () => {
    // Solves tier 0 with the world's tools, once it has checked the request's signature.
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (d) => (body += d));
      req.on("end", async () => {
        const check = await verifyAgentRequest(SECRET, (h) => req.headers[h] as string | undefined, body, Date.now() / 1000);
        if (!check.ok) return refused.push(check.reason), res.writeHead(401).end();
        const { world, task } = JSON.parse(body);
        const call = (name: string, args: unknown) => fetch(`${world.tools_url}/call`, { method: "POST", headers: { authorization: `Bearer ${world.key}`, "content-type": "application/json" }, body: JSON.stringify({ name, arguments: args }) });
        await call("find_customers", { email: task.requester.email });
        await call("refund_charge", { charge: "ch_AcmeNorthwindDup", reason: "duplicate" });
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ reply: "Refunded the duplicate charge." }));
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/agent`;
  });

  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("calls the agent once per episode, signed, and records its rate under agent-url", async () => {
    const f = family();
    const json = join(f.out, "http.json");
    const res = await runCli(["family", "gate", join(f.dir, "mini_refunds_t0"), "--server", "auto", "--runs", "3", "--force", "--json-file", json, "--agent-url", url], { env: { WORLDS_AGENT_SECRET: SECRET }, timeoutMs: 300_000 });
    expect(res.code, res.stdout + res.stderr).toBe(1);
    expect(refused).toEqual([]);
    expect(res.stdout).toContain("tier 0 is at 100%");
    const doc = JSON.parse(readFileSync(json, "utf8"));
    assertValidResults(doc);
    expect(doc.crash_test.tasks[0]).toMatchObject({ trials: 3, passed: 3 });
    expect(rates(f.dir, "mini_refunds_t0")).toEqual([expect.objectContaining({ solver: "agent-url", model: url, k: 3, value: 1, forced: true })]);
    const missing = await runCli(["family", "gate", join(f.dir, "mini_refunds_t0"), "--server", "auto", "--agent-url", url], { env: { WORLDS_AGENT_SECRET: "" } });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("--agent-url needs WORLDS_AGENT_SECRET");
  }, 300_000);
});
