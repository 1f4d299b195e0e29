// The own-environment protocol's failure paths, against real processes: a small node script written into a temp
// dir plays each broken environment. Every failure must reject with an EnvironmentError naming the command and the
// request (never hang, never throw anything else), and no process it started may be left running.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alive } from "../../../test/node/helpers/cli";
import { EnvironmentError, EnvironmentProcess, envCallAnswer, envStartAnswer } from "./env-process";

let dir: string;
let script: string;

// One script, many broken environments: argv[2] chooses how it misbehaves; argv[3] is where it writes the pids it
// owns (its own and any child's), so the test can check they are gone.
const ENV = `
import { createInterface } from "node:readline";
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
const [mode, pidFile] = process.argv.slice(2);
const pids = [process.pid];
if (mode === "grandchild") pids.push(spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" }).pid);
writeFileSync(pidFile, JSON.stringify(pids));
const answer = (v) => process.stdout.write((typeof v === "string" ? v : JSON.stringify(v)) + "\\n");
const tools = [{ name: "build", description: "Build it.", inputSchema: { type: "object", properties: {} } }];
let calls = 0;
for await (const line of createInterface({ input: process.stdin })) {
  const req = JSON.parse(line);
  if (req.op === "start") {
    if (mode === "not-json") answer("ready, here are the tools");
    else if (mode === "wrong-shape") answer({ tools: "build" });
    else if (mode === "silent" || mode === "late") continue;
    else if (mode === "crash-at-start") { process.stderr.write("cannot open the workspace\\n"); process.exit(7); }
    else answer({ tools });
  } else if (req.op === "call") {
    calls++;
    if (mode === "crash-on-call") { process.stderr.write("segfault in build\\n"); process.exit(9); }
    // "late": no answer to start until the next request arrives, then start's answer and that request's.
    if (mode === "late") { answer({ tools }); answer({ result: "second" }); continue; }
    answer({ result: { built: calls } });
  } else if (req.op === "close") process.exit(0);
}
`;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "worlds-env-process-"));
  script = join(dir, "env.mjs");
  writeFileSync(script, ENV);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function envCmd(mode: string): { cmd: string; pidFile: string } {
  const pidFile = join(dir, `pids-${++n}.json`);
  return { cmd: `${JSON.stringify(process.execPath)} ${JSON.stringify(script)} ${mode} ${JSON.stringify(pidFile)}`, pidFile };
}

/** Waits (generously, by polling) until every pid the script wrote is gone; fails the test if one stays. */
async function allGone(pidFile: string): Promise<void> {
  const pids = JSON.parse(readFileSync(pidFile, "utf8")) as number[];
  for (let i = 0; i < 300 && pids.some(alive); i++) await new Promise((r) => setTimeout(r, 100));
  expect(pids.filter(alive)).toEqual([]);
}

async function rejection(p: Promise<unknown>): Promise<Error> {
  const e = await p.then(
    () => null,
    (x: unknown) => x as Error,
  );
  if (!e) throw new Error("expected the request to fail, and it was answered");
  expect(e).toBeInstanceOf(EnvironmentError);
  return e;
}

const START = { op: "start", task: { slug: "t" } } as const;

/** Starts the environment in `mode`, asks it to start, and answers the error it gave, once its processes are gone. */
async function startFailure(mode: string): Promise<{ e: Error; cmd: string }> {
  const { cmd, pidFile } = envCmd(mode);
  const p = new EnvironmentProcess(cmd);
  const e = await rejection(p.ask(START, envStartAnswer));
  await p.close();
  await allGone(pidFile);
  return { e, cmd };
}

describe("an environment of your own, when it misbehaves", () => {
  it("answers normally when it is well (the baseline the failures are measured against)", async () => {
    const { cmd, pidFile } = envCmd("well");
    const p = new EnvironmentProcess(cmd);
    expect((await p.ask(START, envStartAnswer)).tools.map((t) => t.name)).toEqual(["build"]);
    expect(await p.ask({ op: "call", name: "build", arguments: {} }, envCallAnswer)).toEqual({ result: { built: 1 } });
    await p.close();
    await allGone(pidFile);
  }, 60_000);

  it("a line that is not JSON is an error naming the command, the request and the line", async () => {
    const { e, cmd } = await startFailure("not-json");
    expect(e.message).toContain(cmd);
    expect(e.message).toContain("answered 'start' with a line that is not JSON");
    expect(e.message).toContain('"ready, here are the tools"');
  }, 60_000);

  it("JSON of the wrong shape is an error naming the field and pointing at the docs", async () => {
    const { e } = await startFailure("wrong-shape");
    expect(e.message).toMatch(/answered 'start': tools: .+\(docs\/replay\.md, "Your own environment"\)/);
  }, 60_000);

  it("a crash at start is an error with its exit code and the last line of its stderr", async () => {
    const { e, cmd } = await startFailure("crash-at-start");
    expect(e.message).toBe(`${cmd} exited 7: cannot open the workspace`);
  }, 60_000);

  it("a crash mid-trial fails that call and every later request, without a hang", async () => {
    const { cmd, pidFile } = envCmd("crash-on-call");
    const p = new EnvironmentProcess(cmd);
    await p.ask(START, envStartAnswer);
    const e = await rejection(p.ask({ op: "call", name: "build", arguments: {} }, envCallAnswer));
    expect(e.message).toBe(`${cmd} exited 9: segfault in build`);
    const later = await rejection(p.ask({ op: "call", name: "build", arguments: {} }, envCallAnswer));
    expect(later.message).toBe(e.message);
    await p.close();
    await allGone(pidFile);
  }, 60_000);

  it("a command that does not exist is an error at its first request (sh's 127 and its complaint)", async () => {
    const cmd = "worlds-no-such-environment-command --start";
    const p = new EnvironmentProcess(cmd);
    const e = await rejection(p.ask(START, envStartAnswer));
    expect(e.message).toMatch(/^worlds-no-such-environment-command --start exited 127: .*not found/);
    await p.close();
  }, 60_000);

  it("no answer within the timeout is an error naming the request, and the process is ended", async () => {
    const { cmd, pidFile } = envCmd("silent");
    // Long enough for the script to be up and have written its pids on a loaded machine, before the timeout ends it.
    const p = new EnvironmentProcess(cmd, 2000);
    const e = await rejection(p.ask(START, envStartAnswer));
    expect(e.message).toBe(`${cmd} gave no answer to 'start' within 2 s`);
    await allGone(pidFile);
    await p.close();
  }, 60_000);

  it("after a timeout, a late answer is never taken as the answer to the next request", async () => {
    const { cmd, pidFile } = envCmd("late");
    // The late answer comes only after the next request, so the order is fixed whatever the machine's load; the
    // timeout leaves the script time to be up and have written its pids first.
    const p = new EnvironmentProcess(cmd, 2000);
    const first = await rejection(p.ask(START, envStartAnswer));
    expect(first.message).toContain("gave no answer to 'start'");
    // The stream is out of step once an answer is missing: the next request fails with that reason too.
    const second = await rejection(p.ask({ op: "call", name: "build", arguments: {} }, envCallAnswer));
    expect(second.message).toBe(first.message);
    await p.close();
    await allGone(pidFile);
  }, 60_000);

  it("close ends the whole process group, a child the environment started included", async () => {
    const { cmd, pidFile } = envCmd("grandchild");
    const p = new EnvironmentProcess(cmd);
    await p.ask(START, envStartAnswer);
    await p.close();
    await allGone(pidFile);
  }, 60_000);
});
