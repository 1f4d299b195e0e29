// Your own grader (and environment) code, named only on the command line: a process started with `sh -c CMD`
// that reads one JSON request on stdin and writes one JSON answer on stdout (any language). A task file never
// names code to run. The answer is validated; anything else (a crash, a timeout, bad JSON) is an error on the
// task, never a grade.
import { spawn } from "node:child_process";
import { z } from "zod";
import type { GraderRecord } from "../../core/results/grader-record";

export const OWN_TIMEOUT_MS = 120_000;
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

export type ProcessAnswer = { ok: true; value: unknown } | { ok: false; message: string };

/** Runs `cmd` once with `request` as its stdin; its stdout must be one JSON document. */
export function askProcess(cmd: string, request: unknown, timeoutMs = OWN_TIMEOUT_MS): Promise<ProcessAnswer> {
  return new Promise((resolve) => {
    const child = spawn("/bin/sh", ["-c", cmd], { stdio: ["pipe", "pipe", "pipe"], detached: true });
    let out = "";
    let err = "";
    let done = false;
    const finish = (a: ProcessAnswer) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      try {
        if (child.pid) process.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
      resolve(a);
    };
    const timer = setTimeout(() => finish({ ok: false, message: `${cmd} gave no answer within ${timeoutMs / 1000} s` }), timeoutMs);
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString("utf8");
      if (out.length > MAX_ANSWER_BYTES) finish({ ok: false, message: `${cmd} wrote more than ${MAX_ANSWER_BYTES} bytes` });
    });
    child.stderr.on("data", (d: Buffer) => void (err = (err + d.toString("utf8")).slice(-2_000)));
    child.on("error", (e) => finish({ ok: false, message: `${cmd} could not start: ${e.message}` }));
    child.on("close", (code) => {
      if (code !== 0) return finish({ ok: false, message: `${cmd} exited ${code}${err.trim() ? `: ${err.trim().split("\n").pop()}` : ""}` });
      try {
        finish({ ok: true, value: JSON.parse(out) as unknown });
      } catch {
        finish({ ok: false, message: `${cmd} did not answer with JSON on stdout (got ${JSON.stringify(out.slice(0, 120))})` });
      }
    });
    child.stdin.on("error", () => undefined);
    child.stdin.end(JSON.stringify(request));
  });
}

export const ownGraderAnswer = z.object({
  reward: z.number().min(0).max(1),
  passed: z.boolean(),
  criteria: z.array(z.looseObject({ id: z.string().optional(), passed: z.boolean().optional(), met: z.boolean().optional(), reason: z.string().optional() })).max(200).optional(),
  note: z.string().max(10_000).optional(),
});

/** The request an own grader gets: the task as the file holds it, and the run. */
export interface OwnGraderRequest {
  task: Record<string, unknown>;
  episode: { transcript: unknown[]; tool_calls: unknown[]; output: string | null; state: unknown };
}

export async function gradeWithProcess(cmd: string, kind: string, request: OwnGraderRequest): Promise<{ ok: true; record: GraderRecord } | { ok: false; message: string }> {
  const a = await askProcess(cmd, request);
  if (!a.ok) return a;
  const parsed = ownGraderAnswer.safeParse(a.value);
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    return { ok: false, message: `${cmd} answered ${i.path.join(".") || "(the answer)"}: ${i.message} (a grader answers {"reward": 0..1, "passed": true|false})` };
  }
  const v = parsed.data;
  const reasons = [...(v.criteria ?? []).map((c) => `${(c.met ?? c.passed) ? "met" : "not met"} ${c.id ?? "?"}: ${c.reason ?? ""}`.trim()), ...(v.note ? [v.note] : [])];
  return { ok: true, record: { grader: kind, verdict: v.passed ? "passed" : "failed", passed: v.passed, reward: v.reward, reasons, dollars_wrong_cents: null } };
}
