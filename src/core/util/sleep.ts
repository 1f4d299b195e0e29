// A wait that ends early when its signal aborts (the caller gave up), resolving either way: retries' backoff in
// the model client and the scripted model's latency and hangs all stop waiting for a client that went away.
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}
