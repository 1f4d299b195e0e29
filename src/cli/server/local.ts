// The local server: the built Worker (dist/worker) on Miniflare, inside this Node process, on 127.0.0.1.
// `worlds serve` and `--server auto` both use it. One workerd child; stop() disposes it, and Miniflare's own
// exit hook kills it if the process exits any other way (a SIGKILL of this process is the only leak, which is
// why tests run the CLI in its own process group).
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire, Module } from "node:module";
import { scratchStorage } from "./scratch";
import { dirname, join, resolve } from "node:path";
import type { Readable } from "node:stream";
import type { Miniflare } from "miniflare";
import { packageRoot } from "../paths";
import { z } from "zod";
import { readMigrations } from "./migrations";
import { request } from "node:http";
import { pickModelEnv } from "../../core/models/endpoints";

/** What POST /admin/runs/recover answers (src/hosted/runs/recover.ts). */
const recoverySchema = z.object({ runs: z.number(), requeued: z.number(), interrupted: z.number(), worlds_removed: z.number(), finished: z.number() });
/** What recovery did, or why it could not (the server serves either way; the runs stay as they were). */
export type Recovery = z.infer<typeof recoverySchema> | { error: string };

export interface LocalServerOptions {
  /** 0 or absent = a free port. */
  port?: number;
  /** Admin token; absent = a random one minted for this server. */
  token?: string;
  /** Directory for durable state (worlds, D1, R2); absent = Miniflare's temporary storage, gone on stop(). */
  persist?: string | null;
  /** Where the Worker's console output goes, line by line (default: dropped, last lines kept for errors). */
  onRuntimeLine?: (line: string) => void;
  /** Each step of the start as it ends, with the time since this process started (`worlds serve --verbose`). */
  onPhase?: (phase: StartPhase, msSinceProcessStart: number) => void;
  /** Where the model keys and base URLs the Worker gets are read (the judge, the person); default process.env. */
  modelEnv?: Record<string, string | undefined>;
  /** Called once the runtime's process is spawned (startLocalServerEarly waits for it). */
  onSpawn?: () => void;
}

export type StartPhase = "miniflare loaded" | "runtime started" | "database migrated";

export interface LocalServer {
  /** e.g. http://127.0.0.1:43121 (no trailing slash) */
  url: string;
  token: string;
  persist: string | null;
  /** The last lines the Worker printed, for error messages. */
  recentOutput(): string[];
  /** With --persist: the hosted runs a previous server left unfinished, driven again on start (null otherwise). */
  recovered: Recovery | null;
  /** Idempotent. */
  stop(): Promise<void>;
}

/** A reason the server could not start that the user can act on (exit 3, setup_failed). */
export class LocalServerError extends Error {}

export function mintToken(): string {
  return randomBytes(24).toString("base64url");
}

export async function startLocalServer(opts: LocalServerOptions = {}): Promise<LocalServer> {
  // Everything a delivery of this server claims happens after this moment; anything claimed before is dead.
  const startedAt = Date.now();
  const root = packageRoot();
  const scriptPath = join(root, "dist", "worker", "index.js");
  if (!existsSync(scriptPath)) throw new LocalServerError(`the Worker is not built (${scriptPath} is missing). Run \`npm run build\` in ${root}.`);
  const token = opts.token ?? mintToken();
  const persist = opts.persist ? resolve(opts.persist) : null;
  if (persist) mkdirSync(persist, { recursive: true });

  const recent: string[] = [];
  const sink = (line: string) => {
    recent.push(line);
    if (recent.length > 50) recent.shift();
    opts.onRuntimeLine?.(line);
  };

  const phase = (name: StartPhase) => opts.onPhase?.(name, performance.now());
  const { Miniflare, Log, LogLevel } = loadMiniflare();
  phase("miniflare loaded");
  // Without --persist the worlds are thrown away on stop: keep them in memory when the machine allows.
  const scratch = persist ? null : scratchStorage();
  const workerOptions = await miniflareWorkerOptions(root);
  const mf = new Miniflare({
    ...workerOptions,
    // The judge of a hosted run calls its model from the Worker: the keys and base URLs in this environment are the local server's.
    bindings: { ...(workerOptions.bindings as Record<string, unknown> | undefined), ...pickModelEnv(opts.modelEnv ?? process.env), WORLDS_TOKEN: token, COMPRESSION: "off", WORLDS_MIGRATIONS: readMigrations(join(root, "migrations")) },
    ...workerModules(scriptPath),
    // Module names are paths relative to this root; Miniflare's default (the working directory) breaks when the
    // command runs in a project outside the package, as `worlds init` users do.
    modulesRoot: dirname(scriptPath),
    // Users reach the Worker on a socket of its own, not through Miniflare's entry worker: that proxy (a second
    // isolate, the body piped across) cost more CPU than the twin's whole read (bench/tools-call.mjs). The
    // entry's port stays for Miniflare's own dispatchFetch.
    host: "127.0.0.1",
    port: 0,
    unsafeDirectSockets: [{ host: "127.0.0.1", port: opts.port ?? 0 }],
    cf: false,
    ...(process.env.WORLDS_PROFILE_INSPECTOR ? { inspectorPort: Number(process.env.WORLDS_PROFILE_INSPECTOR) } : {}),
    log: new Log(LogLevel.WARN),
    handleRuntimeStdio: (stdout: Readable, stderr: Readable) => {
      opts.onSpawn?.();
      pipeLines(stdout, sink);
      pipeLines(stderr, sink);
    },
    // Same layout as `wrangler dev --persist-to DIR` (DIR/v3/<plugin>), so either tool can open the other's state.
    ...(persist ? { defaultPersistRoot: join(persist, "v3"), durableObjectsPersist: true, d1Persist: true, r2Persist: true, kvPersist: true, cachePersist: true } : {}),
    ...(scratch ? { durableObjectsPersist: scratch.dir } : {}),
  } as ConstructorParameters<typeof Miniflare>[0]);

  let stopped: Promise<void> | null = null;
  const stop = () => (stopped ??= mf.dispose().catch(() => undefined).then(() => scratch?.remove()));
  try {
    await mf.ready;
    phase("runtime started");
    const url = (await mf.unsafeGetDirectURL()).origin;
    // The Worker applies the migrations it was handed on its first health check (src/db/ready.ts): started means ready.
    await health(url);
    phase("database migrated");
    const recovered = persist ? await recoverRuns(mf, url, token, startedAt) : null;
    return { url, token, persist, recentOutput: () => [...recent], recovered, stop };
  } catch (e) {
    await stop();
    const detail = recent.length ? `\n${recent.slice(-10).join("\n")}` : "";
    if ((e as NodeJS.ErrnoException).code === "EADDRINUSE" || /address already in use/i.test(String(e)))
      throw new LocalServerError(`port ${opts.port} is already in use; pick another with --port or leave it out for a free one.`);
    throw new LocalServerError(`the local server did not start: ${(e as Error).message}${detail}`);
  }
}

let early: Promise<LocalServer> | null = null;

/**
 * Starts the server a `--server auto` command will ask for before that command's own code has loaded (src/cli/main.ts):
 * workerd boots in its own process while this one loads the command. Resolves once workerd is spawned (or the start
 * failed): Miniflare's setup before that interleaves with anything loaded meanwhile, which would only delay the
 * spawn. A failure waits for the command to claim the server, and is reported there.
 */
export function startLocalServerEarly(): Promise<void> {
  if (early) return Promise.resolve();
  return new Promise((spawned) => {
    early = startLocalServer({ onSpawn: () => spawned() });
    early.then(() => spawned(), () => spawned());
  });
}

/** The server startLocalServerEarly started, handed over once; null when none was started or it was taken. */
export function takeEarlyServer(): Promise<LocalServer> | null {
  const server = early;
  early = null;
  return server;
}

/** GET /health, which applies the D1 migrations; anything but 200 is a start that failed, with the Worker's reason. */
function health(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/health`, { agent: false }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (body += d.slice(0, 2000)));
      res.on("end", () => (res.statusCode === 200 ? resolve() : reject(new Error(`its health check answered ${res.statusCode}: ${body.slice(0, 500)}`))));
      res.on("error", reject);
    });
    req.setTimeout(60_000, () => req.destroy(new Error("its health check did not answer in 60 s")));
    req.on("error", reject);
    req.end();
  });
}

/**
 * The local queue keeps its messages in memory, so runs a previous server left unfinished in the persisted D1
 * have nothing to drive them: the Worker gives their dead deliveries' episodes back, removes their worlds and
 * queues every unfinished episode again (src/hosted/runs/recover.ts).
 */
async function recoverRuns(mf: Pick<Miniflare, "dispatchFetch">, url: string, token: string, startedAt: number): Promise<Recovery> {
  try {
    const res = await mf.dispatchFetch(`${url}/admin/runs/recover`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ before: startedAt }),
    });
    const text = await res.text();
    if (!res.ok) return { error: `the server answered ${res.status}: ${text.slice(0, 500)}` };
    return recoverySchema.parse(JSON.parse(text));
  } catch (e) {
    // The server still serves; its new runs do not depend on the old ones.
    return { error: (e as Error).message };
  }
}

/**
 * Miniflare is CommonJS (4 MB): `import()` of it runs Node's CommonJS export scanner over the whole file before
 * evaluating it, about 0.4 s of every start; it is compiled as a CommonJS module directly.
 *
 * One line of it is changed as it loads. Miniflare encodes the runtime's configuration, the Worker bundle inside
 * it, as one Cap'n Proto segment that grows by 4 KB at a time, copying everything written so far at each growth:
 * with the 4 MB bundle written first, the small entries after it cost hundreds of copies of megabytes, the largest
 * single cost of a start (about 0.3 s idle, 2 s under load; bench/server-startup.mjs). Growing by at least its
 * own size instead makes the copying linear; the message written is the same bytes (test/node/miniflare-load.test.ts).
 * A Miniflare without that line is loaded unchanged.
 */
export const GROWTH_LINE = "  s.buffer = new ArrayBuffer(srcBuffer.byteLength + minSize);";
const GROWTH_DOUBLING = "  s.buffer = new ArrayBuffer(srcBuffer.byteLength + Math.max(minSize, srcBuffer.byteLength));";

export function loadMiniflare(): typeof import("miniflare") & { linearGrowth: boolean } {
  const req = createRequire(import.meta.url);
  const path = req.resolve("miniflare");
  const cached = req.cache[path];
  if (cached) return cached.exports as typeof import("miniflare") & { linearGrowth: boolean };
  const source = readFileSync(path, "utf8");
  if (!source.includes(GROWTH_LINE)) return Object.assign(req("miniflare") as typeof import("miniflare"), { linearGrowth: false });
  const mod = new Module(path) as Module & { _compile(code: string, filename: string): void };
  mod.filename = path;
  mod.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(dirname(path));
  mod._compile(source.replace(GROWTH_LINE, GROWTH_DOUBLING), path);
  mod.loaded = true;
  req.cache[path] = mod;
  return Object.assign(mod.exports as typeof import("miniflare"), { linearGrowth: true });
}

/**
 * The Worker's modules. wrangler builds it into one ES module (its only imports are the runtime's own) and writes
 * the data it imports beside it as Text modules (wrangler.toml's rules: the seeds, <hash>-<name>.json, and the
 * tokenizer's ranks, <hash>-o200k_base.tiktoken): they are handed to Miniflare as that list. Given `modules: true` instead, Miniflare parses the 5 MB bundle with a
 * JavaScript parser, with locations, to find the imports, which was most of a start (1-2 s on this machine, more
 * under load). A build that ever writes a module of another kind beside it falls back to that scan.
 */
const TEXT_MODULE = /\.(json|tiktoken)$/;
type WorkerModule = { type: "ESModule"; path: string; contents: Uint8Array } | { type: "Text"; path: string; contents: string };
function workerModules(scriptPath: string): { modules: true; scriptPath: string } | { modules: WorkerModule[] } {
  const dir = dirname(scriptPath);
  const others = readdirSync(dir).filter((f) => !f.startsWith(".") && f !== "index.js" && !f.endsWith(".map") && f !== "README.md");
  if (others.some((f) => !TEXT_MODULE.test(f))) return { modules: true, scriptPath };
  return {
    modules: [
      { type: "ESModule", path: scriptPath, contents: readFileSync(scriptPath) },
      ...others.sort().map((f): WorkerModule => ({ type: "Text", path: join(dir, f), contents: readFileSync(join(dir, f), "utf8") })),
    ],
  };
}

/**
 * Miniflare options from wrangler.toml (bindings, Durable Objects, queues, D1, R2, flags), computed with
 * wrangler's helper once per Worker build and cached beside the bundle: importing wrangler costs about 2 s.
 */
async function miniflareWorkerOptions(root: string): Promise<Record<string, unknown>> {
  const configPath = join(root, "wrangler.toml");
  const config = readFileSync(configPath, "utf8");
  const hash = createHash("sha256").update(config).digest("hex");
  const cachePath = join(root, "dist", "worker", ".miniflare-options.json");
  if (existsSync(cachePath)) {
    try {
      const cached = JSON.parse(readFileSync(cachePath, "utf8")) as { hash: string; options: Record<string, unknown> };
      if (cached.hash === hash) return cached.options;
    } catch {
      // A torn or hand-edited cache is recomputed below.
    }
  }
  // The build writes this cache (scripts/build.mjs), so only an edited wrangler.toml gets here; wrangler is a
  // development dependency, absent from an installed package.
  const wrangler = await import("wrangler").catch(() => null);
  if (!wrangler)
    throw new LocalServerError(
      `${configPath} is not the one this package was built with, and reading it needs wrangler, which an installed worlds does not carry: put the original back, or install wrangler beside worlds (npm install --save-dev wrangler@4.86.0).`,
    );
  const { workerOptions } = wrangler.unstable_getMiniflareWorkerOptions(configPath);
  const options = JSON.parse(JSON.stringify(workerOptions)) as Record<string, unknown>;
  try {
    writeFileSync(cachePath, JSON.stringify({ hash, options }));
  } catch {
    // Read-only install: recompute next time.
  }
  return options;
}

function pipeLines(stream: Readable, sink: (line: string) => void): void {
  let buffered = "";
  stream.setEncoding("utf8");
  stream.on("data", (chunk: string) => {
    buffered += chunk;
    let nl: number;
    while ((nl = buffered.indexOf("\n")) >= 0) {
      const line = buffered.slice(0, nl).replace(/\r$/, "");
      buffered = buffered.slice(nl + 1);
      if (line.trim()) sink(line);
    }
    if (buffered.length > 64 * 1024) buffered = buffered.slice(-64 * 1024);
  });
  stream.on("error", () => undefined);
}
