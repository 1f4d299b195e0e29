// `worlds evals run --agent FILE.mjs:export`: the user's own agent function, called in this process as
// `handle(messages, toolbox)` with the conversation so far (the document's shape, and runTask's), while worlds
// runs the person loop: each answer goes to the person, and the person's reply comes back as the next user
// message, until the person is done. The module is loaded once, before any world is made, so a wrong path or
// export is a flag problem, not a run of failed trials. An agent that raises, answers something other than a
// string or overruns the timeout ends its trial as a failed agent (reward 0, the error said).
import { existsSync } from "node:fs";
import { extname, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { z } from "zod";
import { converse } from "../../core/agents/converse";
import { handleTurns } from "../../core/agents/handle-turns";
import { jsonPersonSurface } from "../../core/agents/person-surface";
import { openToolbox } from "../../core/episode-api/toolbox";
import { jsonOrUndefined } from "../../core/util/json-or-undefined";
import type { EpisodeAgent } from "../../core/episode-api/shapes";
import type { InProcessAgent, InProcessContext, InProcessOutcome } from "../episode/in-process";
import { REPLY_LIMIT } from "./runner";

const JS_EXTENSIONS = new Set([".mjs", ".js", ".cjs"]);

/** What the agent is handed first: the task's prompt as the person's opening message. */
const taskShape = z.object({ request: z.string().min(1) });

export type CodeAgentSetup = { ok: true; agent: InProcessAgent } | { ok: false; message: string };

/** `path/to/agent.mjs:handle` -> the file and the export; the last colon splits them. */
export function parseAgentSpec(spec: string): { file: string; name: string } | string {
  const at = spec.lastIndexOf(":");
  if (at <= 0 || at === spec.length - 1) return `'${spec}' is not FILE:function (e.g. --agent my_agent.mjs:handle)`;
  const name = spec.slice(at + 1);
  if (!/^[A-Za-z_$][\w$]*$/.test(name)) return `'${name}' is not a function name (e.g. --agent my_agent.mjs:handle)`;
  return { file: spec.slice(0, at), name };
}

export async function setupCodeAgent(spec: string, cwd = process.cwd()): Promise<CodeAgentSetup> {
  const parsed = parseAgentSpec(spec);
  if (typeof parsed === "string") return { ok: false, message: `--agent ${parsed}` };
  // `my_agent:handle` names a module as the document writes it: my_agent.mjs or my_agent.js beside you.
  const given = resolve(cwd, parsed.file);
  const path = existsSync(given) || extname(given) ? given : ([".mjs", ".js"].map((e) => given + e).find((p) => existsSync(p)) ?? given);
  if (!existsSync(path)) return { ok: false, message: `--agent ${spec}: no such file ${path}${extname(given) ? "" : " (nor .mjs, .js)"}` };
  if (!JS_EXTENSIONS.has(extname(path))) return { ok: false, message: `--agent ${spec}: a JavaScript module (.mjs, .js, .cjs) is called in process; run any other agent as a command after '--'` };
  let mod: Record<string, unknown>;
  try {
    mod = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  } catch (e) {
    return { ok: false, message: `--agent ${spec}: the module could not be loaded: ${(e as Error).message}` };
  }
  const fn = mod[parsed.name] ?? (parsed.name !== "default" && typeof mod.default === "object" && mod.default ? (mod.default as Record<string, unknown>)[parsed.name] : undefined);
  if (typeof fn !== "function") {
    const names = Object.keys(mod).filter((k) => typeof mod[k] === "function").sort();
    return { ok: false, message: `--agent ${spec}: ${parsed.file} has no function '${parsed.name}' (its functions: ${names.join(", ") || "none"})` };
  }
  const agent = fn as EpisodeAgent;
  return { ok: true, agent: { label: ["--agent", spec], run: (ctx) => runOnce(agent, ctx) } };
}

async function runOnce(agent: EpisodeAgent, ctx: InProcessContext): Promise<InProcessOutcome> {
  const started = Date.now();
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const finish = (reply: string, error: string | null, notes: string[]): InProcessOutcome => {
    const bytes = Buffer.from(reply, "utf8");
    const kept = bytes.length <= REPLY_LIMIT ? reply : bytes.subarray(0, REPLY_LIMIT).toString("utf8").replace(/\uFFFD$/, "");
    return {
      started: true,
      spawn_error: null,
      exit_code: error === null ? 0 : timedOut || ctx.signal?.aborted ? null : 1,
      signal: null,
      timed_out: timedOut,
      interrupted: !timedOut && !!ctx.signal?.aborted,
      duration_ms: Date.now() - started,
      reply: kept,
      stdout_bytes: bytes.length,
      reply_truncated: kept !== reply,
      stderr: "",
      stderr_bytes: 0,
      stderr_truncated: false,
      in_process: { error, turn_limit_reached: false, notes },
    };
  };
  const task = taskShape.safeParse(jsonOrUndefined(ctx.taskJson ?? ""));
  if (!task.success) return finish("", "the agent function runs only on a task with a prompt (evals run)", []);
  const ctl = new AbortController();
  const onOuter = () => ctl.abort();
  ctx.signal?.addEventListener("abort", onOuter, { once: true });
  try {
    const toolbox = await openToolbox(ctx.world.tools_url ?? `${ctx.serverUrl}/tools/v1`, ctx.world.key, (i, n) => fetch(i, n));
    const person = ctx.world.person_url ? jsonPersonSurface(ctx.world.person_url, ctx.world.key) : null;
    // The function cannot be stopped from outside; past the timeout its trial ends, and what it does later is ignored.
    const expired = new Promise<"timeout">((r) => {
      timer = setTimeout(() => {
        timedOut = true;
        ctl.abort();
        r("timeout");
      }, ctx.timeoutMs);
    });
    const talk = await Promise.race([converse({ next: handleTurns(agent, [{ role: "user", content: task.data.request }], toolbox), person, signal: ctl.signal }), expired]);
    if (talk === "timeout") return finish("", `the agent function did not finish within ${Math.round(ctx.timeoutMs / 1000)} s`, []);
    const notes = person ? [`the person: ${talk.said} message${talk.said === 1 ? "" : "s"} answered, ${talk.done ? "done" : "not done"}`] : [];
    return finish(talk.output, talk.error, notes);
  } catch (e) {
    return finish("", `the agent function could not run: ${(e as Error).message}`, []);
  } finally {
    clearTimeout(timer);
    ctx.signal?.removeEventListener("abort", onOuter);
  }
}
