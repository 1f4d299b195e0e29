// Applies a world's scenario to one twin request. Every decision is read off the world's own request sequence
// (the trace) and its write attempts (meta), so the same agent calls meet the same misbehaviour on every run.
// The caller traces the response and then waits `delayMs` before answering.
import { latencyFor, refusedByRateLimit, ruleFor, type ScenarioDocument } from "../../src/core/kinds/account/scenario/schema";
import type { Store } from "../store/store";
import type { Transact, TwinRequest, TwinResponse } from "../twin";
import { rateLimited, writeUnavailable } from "./refusals";
import { isListResponse, readBefore, wroteSomething } from "./stale";

export interface ScenarioHost {
  sql: SqlStorage;
  store: Store;
  /** Runs the world's outermost transaction (rolled back if fn throws). */
  transact: Transact;
  /** The service's own handling of the request, with the transaction function it should use. */
  handle(transact: Transact): TwinResponse;
}

export interface ScenarioOutcome {
  response: TwinResponse;
  /** How long to hold the answer back, in milliseconds. */
  delayMs: number;
}

const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export function runScenario(doc: ScenarioDocument | null, req: TwinRequest, host: ScenarioHost): ScenarioOutcome {
  if (!doc) return { response: host.handle(host.transact), delayMs: 0 };
  const { sql, store } = host;
  const service = req.service;
  // This request's position among the service's requests, refused ones included (they are traced too).
  const n = sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM trace WHERE service = ?", service).one().n + 1;
  const latency = ruleFor(doc, "latency", service);
  const delayMs = latency ? latencyFor(latency, n) : 0;

  const limit = ruleFor(doc, "rate_limit", service);
  if (limit && refusedByRateLimit(limit, n)) return { response: rateLimited(store, req, limit.retry_after), delayMs };

  const flaky = ruleFor(doc, "flaky_writes", service);
  if (flaky && WRITE_METHODS.has(req.method)) {
    const key = `scenario.attempts.${service}.${attemptIdentity(req)}`;
    const attempts = Number(store.meta(key) ?? "0");
    if (attempts < flaky.failures + 1) store.setMeta(key, String(attempts + 1));
    if (attempts < flaky.failures) return { response: writeUnavailable(store, req), delayMs };
  }

  const stale = ruleFor(doc, "stale_reads", service);
  if (!stale) return { response: host.handle(host.transact), delayMs };
  const pendingKey = `scenario.stale.${service}`;
  const pending = store.meta(pendingKey);
  if (pending && (req.method === "GET" || req.method === "HEAD")) {
    const before = readBefore(sql, host.transact, pending, () => host.handle((fn) => fn()));
    if (isListResponse(service, before)) {
      store.setMeta(pendingKey, "");
      return { response: before, delayMs };
    }
  }
  const response = host.handle(host.transact);
  if (WRITE_METHODS.has(req.method) && wroteSomething(sql, req.requestId)) store.setMeta(pendingKey, req.requestId);
  return { response, delayMs };
}

/**
 * Which write this is, across its retries: the idempotency key when the client sent one (stripe-node reuses
 * its key on every retry), else the method, path, query and body.
 */
function attemptIdentity(req: TwinRequest): string {
  if (req.headers.idempotencyKey) return `key:${req.headers.idempotencyKey}`;
  return `req:${req.method} ${req.path}?${req.query} ${fnv1a64(req.body)}`;
}

/** FNV-1a over UTF-16 code units, 64-bit, as hex: a stable, synchronous name for a body (not a security hash). */
function fnv1a64(s: string): string {
  let h = 0xcbf29ce484222325n;
  const prime = 0x100000001b3n;
  const mask = 0xffffffffffffffffn;
  for (let i = 0; i < s.length; i++) h = ((h ^ BigInt(s.charCodeAt(i))) * prime) & mask;
  return h.toString(16).padStart(16, "0");
}
