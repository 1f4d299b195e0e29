// The model client: one call = one request in the client's vocabulary, answered from the cache or sent to the
// provider with retries, a per-attempt timeout, a concurrency limit and the run's budget. Every way a call can
// go wrong comes back as a ModelError (never thrown), with the raw text that arrived and no key in it, so the
// caller records the problem on its task and the run goes on. Fetch only: the same code runs in the Worker.
import { createLimiter, type Limiter } from "../util/limiter";
import { abortableSleep } from "../util/sleep";
import { type Budget, worstCaseTokens } from "./budget";
import { cacheKey, isCachedAnswer, type ModelCache } from "./cache";
import type { Endpoint } from "./endpoints";
import { modelLabel, wireApi, type ModelWireApi, type Provider } from "./names";
import { costMicros, microsToDollars, priceOf, SHIPPED_PRICES, type PriceTable } from "./prices";
import { rawExcerpt, redact } from "./redact";
import { backoffMs, DEFAULT_RETRY, retryableStatus, retryAfterMs, type RetryPolicy } from "./retry";
import type { ModelAnswer, ModelError, ModelErrorKind, ModelRequest, Usage } from "./types";
import { ANTHROPIC_PATH, ANTHROPIC_VERSION, anthropicAnswer, anthropicBody } from "./wire/anthropic";
import { DEFAULT_MAX_TOKENS, errorMessage, parseJson, type Decoded } from "./wire/common";
import { OPENAI_PATH, openaiAnswer, openaiBody } from "./wire/openai";
import { readStreamBounded } from "../util/bounded-read";
import { RESPONSES_PATH, responsesAnswer, responsesBody } from "./wire/responses";

/** Each API's request body, answer reader and path under the provider's base URL. */
const WIRES: Record<ModelWireApi, { body: (r: ModelRequest) => Record<string, unknown>; answer: (r: ModelRequest, text: string) => Decoded<ModelAnswer>; path: string }> = {
  chat: { body: openaiBody, answer: openaiAnswer, path: OPENAI_PATH },
  responses: { body: responsesBody, answer: responsesAnswer, path: RESPONSES_PATH },
  messages: { body: anthropicBody, answer: anthropicAnswer, path: ANTHROPIC_PATH },
};

export const DEFAULT_TIMEOUT_MS = 60_000;
export const DEFAULT_CONCURRENCY = 4;
/** A model answer bigger than this is not an answer to anything worlds asks. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

export interface ModelClientOptions {
  endpoints: Partial<Record<Provider, Endpoint>>;
  fetch?: typeof fetch;
  /** Per attempt, including reading the body. */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  concurrency?: number;
  prices?: PriceTable;
  budget?: Budget | null;
  cache?: ModelCache | null;
  /** Injected for tests: waits, jitter and clocks. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  now?: () => number;
}

export interface CallOptions<T> {
  /** Validates the structured answer's parsed JSON (requests with `output`). */
  validate?: (value: unknown) => Decoded<T>;
  signal?: AbortSignal;
}

export interface CallStats {
  /** Requests sent (0 for a cached answer or one refused by the budget). */
  attempts: number;
  cached: boolean;
  usage: Usage;
  /** What this call cost; 0 when cached or never sent; null when the model has no price. */
  micros: number | null;
  ms: number;
}

export type CallResult<T> = CallStats & ({ ok: true; answer: ModelAnswer; value: T } | { ok: false; error: ModelError; answer: ModelAnswer | null });

const NO_USAGE: Usage = { input_tokens: 0, output_tokens: 0 };

export class ModelClient {
  private readonly limit: Limiter;
  private readonly retry: RetryPolicy;
  private readonly fetcher: typeof fetch;
  private readonly secrets: string[];

  constructor(private readonly o: ModelClientOptions) {
    this.limit = createLimiter(o.concurrency ?? DEFAULT_CONCURRENCY);
    this.retry = { ...DEFAULT_RETRY, ...o.retry };
    // Always called as a plain function: Workers refuse `fetch` invoked as a method of another object ("Illegal invocation").
    const given = o.fetch;
    this.fetcher = given ? (input, init) => given(input, init) : (input, init) => fetch(input, init);
    this.secrets = Object.values(o.endpoints).flatMap((e) => (e?.key ? [e.key] : []));
  }

  /** Scrubs every key this client holds out of `text` (for callers that log what the client returned). */
  redact(text: string): string {
    return redact(text, this.secrets);
  }

  async call<T = ModelAnswer>(req: ModelRequest, opts: CallOptions<T> = {}): Promise<CallResult<T>> {
    const started = (this.o.now ?? Date.now)();
    const stats = (attempts: number, micros: number | null, usage: Usage = NO_USAGE, cached = false): CallStats => ({ attempts, cached, usage, micros, ms: (this.o.now ?? Date.now)() - started });
    const fail = (kind: ModelErrorKind, message: string, s: CallStats, extra: { status?: number | null; raw?: string | null; answer?: ModelAnswer | null } = {}): CallResult<T> => ({
      ...s,
      ok: false,
      error: { kind, message: this.redact(message), status: extra.status ?? null, raw: extra.raw == null ? null : rawExcerpt(extra.raw, this.secrets) },
      answer: extra.answer ?? null,
    });

    const endpoint = this.o.endpoints[req.model.provider];
    if (!endpoint) return fail("config", `no endpoint is configured for ${req.model.provider}`, stats(0, 0));
    const wire = WIRES[wireApi(req.model)];
    const body = wire.body(req);
    const bodyText = JSON.stringify(body);
    const key = this.o.cache ? await cacheKey(endpoint.provider, endpoint.baseUrl, body) : null;

    if (this.o.cache && key) {
      const hit = await this.o.cache.get(key).catch(() => null);
      if (hit && isCachedAnswer(hit)) {
        const read = this.read(req, hit.body, opts);
        if (read.ok) return { ...stats(0, 0, read.answer.usage, true), ok: true, answer: read.answer, value: read.value };
        // An entry that no longer reads (a schema changed) is a miss: ask again.
      }
    }

    const price = priceOf(this.o.prices ?? SHIPPED_PRICES, req.model);
    const budget = this.o.budget ?? null;
    if (budget && !price) return fail("config", `${modelLabel(req.model)} has no price in the price table, so a budget cannot hold it; add it with --model-prices FILE`, stats(0, 0));
    let reservation = null;
    if (budget && price) {
      const worst = costMicros(price, worstCaseTokens(bodyText.length, req.maxTokens ?? DEFAULT_MAX_TOKENS));
      reservation = await budget.reserve(worst);
      if (!reservation) {
        const spent = microsToDollars(await budget.spentMicros());
        return fail("budget", `skipped for budget: $${spent.toFixed(4)} of the $${microsToDollars(budget.limitMicros).toFixed(4)} budget is spent or reserved, and this call could cost up to $${microsToDollars(worst).toFixed(4)}`, stats(0, 0));
      }
    }

    let usage: Usage = NO_USAGE;
    let attempts = 0;
    const micros = () => (price ? costMicros(price, usage) : null);
    try {
      return await this.limit(async () => {
        for (;;) {
          attempts++;
          const sent = await this.send(endpoint, wire.path, bodyText, opts.signal);
          const last = attempts >= this.retry.maxAttempts;
          if (sent.kind === "failed") {
            if (sent.retryable && !last && !opts.signal?.aborted) {
              await this.wait(backoffMs(this.retry, attempts, null, this.o.random ?? Math.random), opts.signal);
              continue;
            }
            return fail(sent.timeout ? "timeout" : "network", `${sent.message}${attempts > 1 ? ` (after ${attempts} attempts)` : ""}`, stats(attempts, micros(), usage));
          }
          if (sent.status !== 200) {
            const after = retryAfterMs(sent.retryAfter, (this.o.now ?? Date.now)());
            const waitable = after === null || after <= this.retry.maxRetryAfterMs;
            if (retryableStatus(sent.status) && !last && waitable && !opts.signal?.aborted) {
              await this.wait(backoffMs(this.retry, attempts, after, this.o.random ?? Math.random), opts.signal);
              continue;
            }
            const said = errorMessage(sent.text);
            const why = !waitable ? ` (it asked to wait ${Math.round(after! / 1000)} s, more than the ${Math.round(this.retry.maxRetryAfterMs / 1000)} s the client waits)` : "";
            return fail("http", `${endpoint.provider} answered HTTP ${sent.status}${said ? `: ${said}` : ""}${why}${attempts > 1 ? ` (after ${attempts} attempts)` : ""}`, stats(attempts, micros(), usage), { status: sent.status, raw: sent.text });
          }
          const read = this.read(req, sent.text, opts);
          if (read.answer) usage = read.answer.usage;
          if (!read.ok) return fail(read.kind, read.message, stats(attempts, micros(), usage), { status: 200, raw: read.raw, answer: read.answer });
          if (this.o.cache && key) {
            await this.o.cache.put(key, { format: 1, provider: endpoint.provider, model: req.model.model, body: sent.text, stored_at: new Date((this.o.now ?? Date.now)()).toISOString() }).catch(() => undefined);
          }
          return { ...stats(attempts, micros(), usage), ok: true as const, answer: read.answer, value: read.value };
        }
      });
    } finally {
      if (budget && reservation) await budget.settle(reservation, micros() ?? 0);
    }
  }

  /** One attempt. Never throws: a timeout, a refused connection or a body past the limit is a failed attempt. */
  private async send(endpoint: Endpoint, path: string, bodyText: string, outer?: AbortSignal): Promise<{ kind: "answered"; status: number; text: string; retryAfter: string | null } | { kind: "failed"; retryable: boolean; timeout: boolean; message: string }> {
    const timeoutMs = this.o.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const ctl = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      ctl.abort();
    }, timeoutMs);
    const onOuter = () => ctl.abort();
    outer?.addEventListener("abort", onOuter, { once: true });
    const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
    if (endpoint.provider === "openai") {
      if (endpoint.key) headers.authorization = `Bearer ${endpoint.key}`;
    } else {
      headers["anthropic-version"] = ANTHROPIC_VERSION;
      if (endpoint.key) headers["x-api-key"] = endpoint.key;
    }
    const url = endpoint.baseUrl + path;
    try {
      const res = await this.fetcher(url, { method: "POST", headers, body: bodyText, signal: ctl.signal });
      const text = await readBounded(res, MAX_BODY_BYTES);
      if (text === null) return { kind: "failed", retryable: false, timeout: false, message: `${endpoint.provider} sent an answer over ${MAX_BODY_BYTES} bytes` };
      // Scrubbed at the source: nothing derived from an answer (values, errors, the cache) can carry a key back.
      return { kind: "answered", status: res.status, text: this.redact(text), retryAfter: res.headers.get("retry-after") };
    } catch (e) {
      if (timedOut) return { kind: "failed", retryable: true, timeout: true, message: `${endpoint.provider} did not answer within ${timeoutMs} ms` };
      if (outer?.aborted) return { kind: "failed", retryable: false, timeout: false, message: "the call was cancelled" };
      return { kind: "failed", retryable: true, timeout: false, message: `could not reach ${endpoint.provider} at ${endpoint.baseUrl}: ${(e as Error).message}` };
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener("abort", onOuter);
    }
  }

  /** Decodes an answer and, for structured requests, checks it: refused, truncated, not JSON, not the schema. */
  private read<T>(req: ModelRequest, text: string, opts: CallOptions<T>): { ok: true; answer: ModelAnswer; value: T } | { ok: false; kind: ModelErrorKind; message: string; raw: string; answer: ModelAnswer | null } {
    const decoded = WIRES[wireApi(req.model)].answer(req, text);
    if (!decoded.ok) return { ok: false, kind: "malformed", message: decoded.message, raw: text, answer: null };
    const answer = decoded.value;
    if (!req.output) return { ok: true, answer, value: answer as unknown as T };
    const shown = answer.structured ?? answer.text ?? text;
    if (answer.stop === "refusal") return { ok: false, kind: "refused", message: `the model refused to answer${answer.refusal ? `: ${firstLine(answer.refusal)}` : ""}`, raw: answer.refusal || shown, answer };
    if (answer.stop === "length") return { ok: false, kind: "truncated", message: `the answer was cut off at the token limit (${req.maxTokens ?? DEFAULT_MAX_TOKENS} output tokens)`, raw: shown, answer };
    if (answer.structured === null) return { ok: false, kind: "malformed", message: `the answer holds no ${req.output.name} (${(req.output.via ?? "response_format") === "tool" || req.model.provider === "anthropic" ? "the forced tool was not called" : "no content"})`, raw: shown, answer };
    const json = parseJson(answer.structured);
    if (!json.ok) return { ok: false, kind: "malformed", message: `the ${req.output.name} answer is ${json.message}`, raw: answer.structured, answer };
    if (!opts.validate) return { ok: true, answer, value: json.value as T };
    const valid = opts.validate(json.value);
    if (!valid.ok) return { ok: false, kind: "malformed", message: valid.message, raw: answer.structured, answer };
    return { ok: true, answer, value: valid.value };
  }

  private wait(ms: number, signal?: AbortSignal): Promise<void> {
    return (this.o.sleep ?? abortableSleep)(ms, signal);
  }
}

async function readBounded(res: Response, limit: number): Promise<string | null> {
  const declared = Number(res.headers.get("content-length") ?? "");
  if (Number.isFinite(declared) && declared > limit) {
    await res.body?.cancel().catch(() => undefined);
    return null;
  }
  const bytes = await readStreamBounded(res.body, limit, "refuse");
  return bytes === null ? null : new TextDecoder().decode(bytes);
}

function firstLine(s: string): string {
  const line = s.split("\n")[0].trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
