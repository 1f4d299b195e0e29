// The package as a team gets it: `npm pack` of this checkout, installed into fresh projects outside it the way the
// README says, through a loopback stand-in for the registry (bench/lib/local-registry.mjs: npm takes every
// dependency from its cache, as this checkout's `npm ci` filled it). In each project `worlds init --yes` writes the
// workflow, the placeholder agent is replaced, and the workflow's own passk step runs: exit 0 with a careful agent,
// exit 1 with a reckless one. A Node project installs worlds as a devDependency; a Python one runs it through npx.
import { execFile, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { registryEnv, startLocalRegistry } from "../../bench/lib/local-registry.mjs";
import { ROOT } from "./helpers/cli";

const run = promisify(execFile);
const SLOW = 900_000;
const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { name: string; version: string };
const version = manifest.version;
const python = spawnSync("python3", ["--version"]).status === 0;

let registry: { url: string; stop(): Promise<void> } | null = null;
let env: NodeJS.ProcessEnv = {};
let npxDir = "";

beforeAll(async () => {
  if (!existsSync(join(ROOT, "dist", "cli", "main.mjs"))) throw new Error("dist/ is not built: run npm run build first");
  const out = mkdtempSync(join(tmpdir(), "worlds-pack-"));
  // Built already (npm run build); --ignore-scripts keeps prepare from building it again.
  const packed = JSON.parse((await run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", out], { cwd: ROOT })).stdout) as Array<{ filename: string }>;
  const cache = (await run("npm", ["config", "get", "cache"])).stdout.trim();
  registry = await startLocalRegistry({ lockfile: join(ROOT, "package-lock.json"), tarballs: [{ file: join(out, packed[0].filename), manifest }], cache });
  env = { ...registryEnv(registry.url), WORLDS_URL: undefined, WORLDS_TOKEN: undefined };
  // npx keeps what it fetched under the cache's _npx/<hash of the spec>: start from none, so this tarball is the one run.
  npxDir = join(cache, "_npx", createHash("sha512").update(`worlds@${version}`).digest("hex").slice(0, 16));
  rmSync(npxDir, { recursive: true, force: true });
}, SLOW);

afterAll(async () => {
  await registry?.stop();
  if (npxDir) rmSync(npxDir, { recursive: true, force: true });
});

/** A command in the project, with the registry's environment; never throws. */
function sh(cwd: string, command: string, args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d));
    child.stderr.on("data", (d: Buffer) => (out += d));
    child.on("close", (code) => resolve({ code, out }));
  });
}

interface Step {
  name?: string;
  run?: string;
}

/** The workflow's steps, and the passk step's script with the placeholder replaced by the agent command. */
function workflow(dir: string): { steps: Step[]; passk(agent: string): string } {
  const steps = (parseYaml(readFileSync(join(dir, ".github", "workflows", "worlds.yml"), "utf8")) as { jobs: { "crash-test": { steps: Step[] } } }).jobs["crash-test"].steps;
  const script = steps.find((s) => s.name === "worlds passk")!.run!;
  expect(script).toContain("REPLACE_WITH_YOUR_AGENT_COMMAND");
  return { steps, passk: (agent) => script.replace("REPLACE_WITH_YOUR_AGENT_COMMAND", agent) };
}

/** Runs the step's script as GitHub's bash does (-e), in the project. */
const runStep = (dir: string, script: string) => sh(dir, "bash", ["-e", "-c", script]);

describe.skipIf(!python)("the package in a Node project", () => {
  const dir = mkdtempSync(join(tmpdir(), "worlds-node-project-"));

  it("npx worlds init adds worlds at its exact version to devDependencies; npm install and npm ci install the tarball, without a build or wrangler", async () => {
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "my-agent", private: true, type: "module" }, null, 2) + "\n");
    const init = await sh(dir, "npx", ["--yes", `worlds@${version}`, "init", "--yes"]);
    expect(init.code, init.out).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).devDependencies).toEqual({ worlds: version });
    const steps = workflow(dir).steps;
    expect(steps.some((s) => s.run === "npm ci")).toBe(true);
    const install = await sh(dir, "npm", ["install"]);
    expect(install.code, install.out).toBe(0);
    const ci = await sh(dir, "npm", ["ci"]);
    expect(ci.code, ci.out).toBe(0);
    const installed = join(dir, "node_modules", "worlds");
    expect(existsSync(join(installed, "dist", "cli", "main.mjs"))).toBe(true);
    expect(existsSync(join(installed, "dist", "worker", ".miniflare-options.json"))).toBe(true);
    for (const absent of ["src", "scripts", "test", "bench", join("dist", "cli", "main.mjs.map")]) expect(existsSync(join(installed, absent)), absent).toBe(false);
    expect(existsSync(join(dir, "node_modules", "wrangler"))).toBe(false);
  }, SLOW);

  it("the workflow's passk step passes with the careful agent, the bundled one named example:", async () => {
    const r = await runStep(dir, workflow(dir).passk("python3 example:agents/desk_agent.py"));
    expect(r.out).toContain("the agent command's example:agents/desk_agent.py is " + join(dir, "node_modules", "worlds", "examples", "agents", "desk_agent.py"));
    expect(r.code, r.out.slice(-3000)).toBe(0);
    expect(existsSync(join(dir, "worlds-report.html"))).toBe(true);
  }, SLOW);

  it("and fails, exit 1, with a reckless agent", async () => {
    const r = await runStep(dir, workflow(dir).passk("node node_modules/worlds/examples/agents/reckless.mjs"));
    expect(r.code, r.out.slice(-3000)).toBe(1);
    expect(r.out).toContain("status: policy_failed (exit 1)");
  }, SLOW);
});

describe.skipIf(!python)("the package in a Python agent's repository (no package.json)", () => {
  const dir = mkdtempSync(join(tmpdir(), "worlds-python-project-"));

  it("init writes a workflow that runs the pinned version through npx, and no package.json", async () => {
    copyFileSync(join(ROOT, "examples", "agents", "desk_agent.py"), join(dir, "agent.py"));
    const init = await sh(dir, "npx", ["--yes", `worlds@${version}`, "init", "--yes"]);
    expect(init.code, init.out).toBe(0);
    expect(existsSync(join(dir, "package.json"))).toBe(false);
    const { steps, passk } = workflow(dir);
    expect(steps.some((s) => s.run === "npm ci")).toBe(false);
    expect(passk("x")).toContain(`npx --yes worlds@${version} passk --server auto --tasks worlds/tasks.yaml`);
  }, SLOW);

  it("the step passes with the careful Python agent", async () => {
    const r = await runStep(dir, workflow(dir).passk("python3 agent.py"));
    expect(r.code, r.out.slice(-3000)).toBe(0);
    expect(r.out).toContain("status: passed (exit 0)");
  }, SLOW);

  it("and fails, exit 1, when the agent is reckless", async () => {
    const r = await runStep(dir, workflow(dir).passk("python3 agent.py --reckless"));
    expect(r.code, r.out.slice(-3000)).toBe(1);
    expect(r.out).toMatch(/overreach/);
  }, SLOW);
});

describe.skipIf(python)("the package in a Python agent's repository", () => {
  it.skip("needs python3 on PATH (not found): the Node and Python project cases were skipped", () => undefined);
});
