// `worlds compare` end to end in-process: files and run ids in, the text, JSON and HTML out, and the exit codes
// of the contract for no change, a real drop, a drop within noise and every kind of bad input.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { syntheticRun, uniform, type SyntheticTask } from "../../core/compare/synthetic.fixture";
import { serializeResults, type Results } from "../../core/results/index";
import { assertValidComparison } from "../../../test/node/helpers/validate-compare";
import { main } from "../main";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "worlds-compare-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

function file(name: string, content: Results | string): string {
  const p = join(dir, name);
  writeFileSync(p, typeof content === "string" ? content : serializeResults(content));
  return p;
}

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  vi.spyOn(process.stdout, "write").mockImplementation((c: string | Uint8Array) => ((out += String(c)), true));
  vi.spyOn(process.stderr, "write").mockImplementation((c: string | Uint8Array) => ((err += String(c)), true));
  const code = await main(["compare", ...argv]);
  vi.restoreAllMocks();
  return { code, out, err };
}

const base: SyntheticTask[] = uniform("T", 8, "✓✓✓✓✓✓");
const drop = base.map((t, i) => (i < 2 ? { ...t, marks: "✗✗✓✗✗✗" } : t));
const noise = base.map((t, i) => (i === 0 ? { ...t, marks: "✓✓✗✓✓✓" } : t));

describe("worlds compare on files", () => {
  it("no change: exit 0, text ending in the contract lines", async () => {
    const b = file("base.json", syntheticRun(base));
    const r = await run([b, b]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/\nstatus: passed \(exit 0\) — no task got worse \(8 compared; at 0\.05, Holm over 9 tests\)\nnext: nothing to do\n$/);
  });

  it("a real drop: exit 1, the JSON valid against its schema, the HTML written", async () => {
    const b = file("base.json", syntheticRun(base));
    const n = file("drop.json", syntheticRun(drop));
    const report = join(dir, "compare.html");
    const jsonFile = join(dir, "compare.json");
    const r = await run([b, n, "--json", "--report", report, "--json-file", jsonFile]);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.out);
    assertValidComparison(doc);
    expect(doc).toMatchObject({ status: "regressed", exit_code: 1, worse: ["T-1", "T-2"] });
    expect(readFileSync(jsonFile, "utf8")).toBe(r.out);
    expect(readFileSync(report, "utf8")).toMatch(/^<!doctype html>/);
  });

  it("a drop within noise: exit 0, the task named as worse", async () => {
    const r = await run([file("base.json", syntheticRun(base)), file("noise.json", syntheticRun(noise)), "--json"]);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out);
    assertValidComparison(doc);
    expect(doc.worse).toEqual(["T-1"]);
    expect(doc.became_flaky).toEqual(["T-1"]);
  });

  it("--alpha and --correction change the bar", async () => {
    const b = file("base.json", syntheticRun(uniform("T", 5, "✓✓✓")));
    const n = file("collapse.json", syntheticRun([{ id: "T-1", marks: "✗✗✗" }, ...uniform("T", 5, "✓✓✓").slice(1)]));
    expect((await run([b, n])).code).toBe(0);
    expect((await run([b, n, "--correction", "none"])).code).toBe(1);
    expect((await run([b, n, "--alpha", "0.1"])).code).toBe(1);
  });
});

describe("worlds compare refuses bad input with the contract's codes", () => {
  it("a file that is not a results document: exit 2 naming the file and the field", async () => {
    const doc = JSON.parse(serializeResults(syntheticRun(base)));
    doc.crash_test.tasks[3].passed = -1;
    const bad = file("bad.json", JSON.stringify(doc));
    const r = await run([file("base.json", syntheticRun(base)), bad, "--json"]);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.out)).toMatchObject({ schema: "worlds.compare/1", status: "configuration_incomplete", exit_code: 2 });
    expect(r.err).toContain(`${bad}: crash_test.tasks.3.passed:`);
    assertValidComparison(JSON.parse(r.out));
  });
  it("a missing file, a non-JSON file, a directory: exit 2", async () => {
    const b = file("base.json", syntheticRun(base));
    expect((await run([b, join(dir, "nope.json")])).err).toContain("nope.json: no such file");
    expect((await run([b, file("text.json", "hello")])).err).toMatch(/text\.json: not JSON/);
    expect((await run([b, dir])).code).toBe(2);
  });
  it("flags: one file only, a bad alpha, an unknown correction, two outputs on one path: exit 2", async () => {
    const b = file("base.json", syntheticRun(base));
    expect((await run([b])).err).toContain("two results to compare");
    expect((await run([b, b, "--alpha", "5"])).err).toContain("--alpha must be a number between 0 and 1");
    expect((await run([b, b, "--correction", "bonferroni"])).err).toContain("--correction must be one of holm, bh, none");
    expect((await run([b, b, "--json-file", join(dir, "x"), "--report", join(dir, "x")])).code).toBe(2);
  });
  it("a run that stopped before its tasks compiled: exit 4, nothing to compare", async () => {
    const early = file("early.json", JSON.stringify({ schema: "worlds.results/1", status: "setup_failed", reason: "no server", next_action: "x", exit_code: 3, generated_at: null }));
    const r = await run([file("base.json", syntheticRun(base)), early]);
    expect(r.code).toBe(4);
    expect(r.out).toContain("status: inconclusive (exit 4) — the new");
  });
  it("a run id without a server: exit 2 saying what is needed", async () => {
    const r = await run([file("base.json", syntheticRun(base)), "run_AAAAAAAAAAAAAAAA"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("run_AAAAAAAAAAAAAAAA is a run id, and reading it needs the server that ran it");
  });
});

describe("worlds compare on run ids", () => {
  let server: Server;
  let url: string;
  const done = "run_DONE000000000000";
  beforeAll(async () => {
    const results = JSON.parse(serializeResults(syntheticRun(drop)));
    const view = (id: string, status: string) => ({ id, status, mode: "isolated", source: "api", runs: 6, tasks: 8, created_at: "2026-12-01T00:00:00Z", progress: { total: 48, finished: status === "done" ? 48 : 10 }, results: status === "done" ? results : null });
    server = createServer((req, res) => {
      if (req.headers.authorization !== "Bearer tok") return void res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ error: { code: "unauthorized", message: "bad token" } }));
      const m = /^\/admin\/runs\/(run_[A-Za-z0-9]{16})$/.exec(req.url ?? "");
      if (!m || m[1].startsWith("run_MISSING")) return void res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { code: "not_found", message: "no such run" } }));
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(view(m[1], m[1].startsWith("run_BUSY") ? "running" : "done")));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const a = server.address();
    url = `http://127.0.0.1:${typeof a === "object" && a ? a.port : 0}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("reads a finished run's results from the server", async () => {
    const r = await run([file("base.json", syntheticRun(base)), done, "--url", url, "--token", "tok"]);
    expect(r.code, r.err).toBe(1);
    expect(r.out).toContain(`→ new ${done} (6 runs`);
  });
  it("a run still going is inconclusive (4); an unknown id is bad input (2); a wrong token is setup (3)", async () => {
    const b = file("base.json", syntheticRun(base));
    expect((await run([b, "run_BUSY000000000000", "--url", url, "--token", "tok"])).code).toBe(4);
    expect((await run([b, "run_MISSING000000000", "--url", url, "--token", "tok"])).code).toBe(2);
    expect((await run([b, done, "--url", url, "--token", "wrong"])).code).toBe(3);
  });
});
