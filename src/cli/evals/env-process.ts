// An environment of your own (`worlds evals run --environment CMD`): a process started with `sh -c CMD` for one
// episode, spoken to in JSON lines (one request per line on its stdin, one answer per line on its stdout), so any
// language works. Requests go one at a time, in order. Every answer is validated; a crash, a timeout, a line that
// is not JSON or an answer of another shape is an error naming the command and the request, never a guess.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { z } from "zod";
import { ReplayToolSchema } from "../../core/kinds/replay/task-format/index";

export const ENV_REQUEST_TIMEOUT_MS = 60_000;
const MAX_LINE_BYTES = 4 * 1024 * 1024;

export const envStartAnswer = z.object({
  tools: z.array(ReplayToolSchema).max(256).default([]),
  /** The first message the agent is given; the task's prompt when absent. */
  message: z.string().min(1).max(256 * 1024).optional(),
});
export type EnvStart = z.infer<typeof envStartAnswer>;
export const envCallAnswer = z.union([z.object({ error: z.string().min(1).max(32_768) }), z.object({ result: z.unknown() })]);
export const envRespondAnswer = z.object({ reply: z.string().max(256 * 1024), done: z.boolean() });
export const envStateAnswer = z.object({ state: z.unknown() });

export type EnvRequest =
  | { op: "start"; task: Record<string, unknown> }
  | { op: "call"; name: string; arguments: unknown }
  | { op: "respond"; said: string }
  | { op: "state" }
  | { op: "close" };

export class EnvironmentError extends Error {}

export class EnvironmentProcess {
  private child: ChildProcessWithoutNullStreams;
  private buffer = "";
  private stderr = "";
  private waiting: { resolve: (line: string) => void; reject: (e: Error) => void } | null = null;
  private lines: string[] = [];
  private ended: Error | null = null;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly cmd: string,
    private readonly timeoutMs = ENV_REQUEST_TIMEOUT_MS,
  ) {
    this.child = spawn("/bin/sh", ["-c", cmd], { stdio: ["pipe", "pipe", "pipe"], detached: true });
    this.child.stdout.on("data", (d: Buffer) => this.take(d.toString("utf8")));
    this.child.stderr.on("data", (d: Buffer) => void (this.stderr = (this.stderr + d.toString("utf8")).slice(-2_000)));
    this.child.stdin.on("error", () => undefined);
    this.child.on("error", (e) => this.end(new EnvironmentError(`${cmd} could not start: ${e.message}`)));
    this.child.on("close", (code, signal) => {
      const last = this.stderr.trim().split("\n").pop();
      this.end(new EnvironmentError(`${cmd} exited ${code ?? signal}${last ? `: ${last}` : ""}`));
    });
  }

  private take(chunk: string): void {
    this.buffer += chunk;
    if (this.buffer.length > MAX_LINE_BYTES) return this.end(new EnvironmentError(`${this.cmd} wrote a line longer than ${MAX_LINE_BYTES} bytes`)), this.kill();
    let nl: number;
    while ((nl = this.buffer.indexOf("\n")) >= 0) {
      const line = this.buffer.slice(0, nl).trim();
      this.buffer = this.buffer.slice(nl + 1);
      if (!line) continue;
      if (this.waiting) {
        const w = this.waiting;
        this.waiting = null;
        w.resolve(line);
      } else this.lines.push(line);
    }
  }

  private end(e: Error): void {
    if (this.ended) return;
    this.ended = e;
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = null;
      w.reject(e);
    }
  }

  private nextLine(op: string): Promise<string> {
    const queued = this.lines.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    if (this.ended) return Promise.reject(this.ended);
    return new Promise((resolve, reject) => {
      // A missing answer puts the stream out of step (a late one would be read as the next request's), so the
      // process is ended: this request and every later one fail with the reason.
      const timer = setTimeout(() => {
        this.end(new EnvironmentError(`${this.cmd} gave no answer to '${op}' within ${this.timeoutMs / 1000} s`));
        this.kill();
      }, this.timeoutMs);
      this.waiting = {
        resolve: (l) => (clearTimeout(timer), resolve(l)),
        reject: (e) => (clearTimeout(timer), reject(e)),
      };
    });
  }

  /** One request and its answer, validated by `schema`; requests are sent one after another. */
  ask<S extends z.ZodType>(request: EnvRequest, schema: S): Promise<z.infer<S>> {
    const run = async (): Promise<z.infer<S>> => {
      if (this.ended) throw this.ended;
      this.child.stdin.write(JSON.stringify(request) + "\n");
      const line = await this.nextLine(request.op);
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        throw new EnvironmentError(`${this.cmd} answered '${request.op}' with a line that is not JSON (${JSON.stringify(line.slice(0, 120))})`);
      }
      const parsed = schema.safeParse(value);
      if (!parsed.success) {
        const i = parsed.error.issues[0];
        throw new EnvironmentError(`${this.cmd} answered '${request.op}': ${i?.path.join(".") || "(the answer)"}: ${i?.message ?? "not the expected shape"} (docs/replay.md, "Your own environment")`);
      }
      return parsed.data;
    };
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Asks it to close, then makes sure it is gone (its whole process group). */
  async close(): Promise<void> {
    if (!this.ended) {
      this.child.stdin.write(JSON.stringify({ op: "close" }) + "\n");
      this.child.stdin.end();
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, 2_000);
        this.child.once("close", () => (clearTimeout(t), resolve()));
      });
    }
    this.kill();
  }

  private kill(): void {
    try {
      if (this.child.pid) process.kill(-this.child.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
}
