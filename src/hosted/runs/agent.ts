// Calling a hosted run's agent: one signed POST per episode, an answer {reply} within the run's timeout. The
// outcome is classified so the consumer knows what to retry (the agent's server failing or slow) and what to
// record as the agent's own doing (a refusal, an answer without a reply).
import { AGENT_REPLY_LIMIT, agentResponse, ATTEMPT_HEADER, EPISODE_HEADER, signAgentRequest, type AgentRequestBody } from "../../core/pipeline/index";
import { readStreamBounded } from "../../core/util/bounded-read";

/** How much of an answer is read: enough for a reply far over the kept limit, so it is cut rather than refused. */
const ANSWER_READ_LIMIT = 4 * 1024 * 1024;

export type AgentCall =
  | { ok: true; reply: string; replyBytes: number | null; durationMs: number }
  | { ok: false; transient: boolean; timedOut: boolean; error: string; durationMs: number };

export interface AgentTarget {
  url: string;
  secret: string;
  timeoutMs: number;
  episode: string;
  attempt: number;
}

export async function callAgent(target: AgentTarget, body: AgentRequestBody, fetcher: typeof fetch = fetch): Promise<AgentCall> {
  const text = JSON.stringify(body);
  const started = Date.now();
  const elapsed = () => Date.now() - started;
  const headers = {
    "content-type": "application/json",
    "user-agent": "worlds-hosted-run/1",
    [EPISODE_HEADER]: target.episode,
    [ATTEMPT_HEADER]: String(target.attempt),
    ...(await signAgentRequest(target.secret, text, Date.now() / 1000)),
  };
  // The deadline covers the whole exchange (connecting, waiting, reading the answer), whatever the fetch does
  // with the abort signal.
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new AgentTimeout());
    }, target.timeoutMs);
  });
  deadline.catch(() => undefined); // settled by the race; never an unhandled rejection
  const timedOut = (e: unknown) => e instanceof AgentTimeout;
  let res: Response;
  let raw: string;
  try {
    try {
      res = await Promise.race([fetcher(target.url, { method: "POST", headers, body: text, signal: controller.signal, redirect: "manual" }), deadline]);
    } catch (e) {
      return { ok: false, transient: true, timedOut: timedOut(e), error: timedOut(e) ? `no answer within ${target.timeoutMs / 1000} s` : `could not reach ${target.url}: ${(e as Error).message}`, durationMs: elapsed() };
    }
    try {
      raw = await Promise.race([readCapped(res, ANSWER_READ_LIMIT), deadline]);
    } catch (e) {
      return { ok: false, transient: true, timedOut: timedOut(e), error: timedOut(e) ? `no complete answer within ${target.timeoutMs / 1000} s` : `the answer broke off: ${(e as Error).message}`, durationMs: elapsed() };
    }
  } finally {
    clearTimeout(timer);
  }
  if (!res.ok) {
    // Server errors, rate limits and timeouts at a gateway pass; any other refusal is the agent's answer.
    const transient = res.status >= 500 || res.status === 429 || res.status === 408;
    return { ok: false, transient, timedOut: false, error: `HTTP ${res.status}${raw.trim() ? `: ${raw.trim().slice(0, 200)}` : ""}`, durationMs: elapsed() };
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    const what = raw.length >= ANSWER_READ_LIMIT ? `the answer is larger than ${ANSWER_READ_LIMIT} bytes` : `the answer is not JSON (expected {"reply": "..."}): ${raw.trim().slice(0, 120)}`;
    return { ok: false, transient: false, timedOut: false, error: what, durationMs: elapsed() };
  }
  const parsed = agentResponse.safeParse(json);
  if (!parsed.success) return { ok: false, transient: false, timedOut: false, error: 'the answer has no string "reply" field', durationMs: elapsed() };
  const reply = parsed.data.reply.trim();
  const bytes = new TextEncoder().encode(reply);
  if (bytes.byteLength <= AGENT_REPLY_LIMIT) return { ok: true, reply, replyBytes: null, durationMs: elapsed() };
  const kept = new TextDecoder().decode(bytes.slice(0, AGENT_REPLY_LIMIT)).replace(/\uFFFD$/, "");
  return { ok: true, reply: kept, replyBytes: bytes.byteLength, durationMs: elapsed() };
}

class AgentTimeout extends Error {}

/** Reads at most `limit` bytes of the body; an answer larger than that is cut (its JSON then fails to parse). */
async function readCapped(res: Response, limit: number): Promise<string> {
  return new TextDecoder().decode((await readStreamBounded(res.body, limit, "cut"))!);
}
