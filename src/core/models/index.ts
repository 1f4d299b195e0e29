// The model client's public API (docs/models.md). Runtime-neutral: fetch and Web Crypto only.
export * from "./names";
export * from "./types";
export * from "./endpoints";
export * from "./prices";
export * from "./budget";
export * from "./cache";
export * from "./retry";
export { redact, rawExcerpt } from "./redact";
export { structured, type Structured } from "./structured";
export { ModelClient, DEFAULT_TIMEOUT_MS, DEFAULT_CONCURRENCY, type ModelClientOptions, type CallOptions, type CallResult, type CallStats } from "./client";
export type { Decoded } from "./wire/common";
