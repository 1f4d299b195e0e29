// Closed-loop HTTP load: `clients` concurrent loops, each sending its next request when the last one answered,
// for `seconds`; node:http with keep-alive (how the official stripe client sends) or Node's fetch.
import http from "node:http";
import { percentile } from "./server.mjs";

export function httpLoad({ clients, seconds, client = "http" }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  async function send(url, init = {}) {
    if (client === "fetch") {
      const res = await fetch(url, init);
      return { status: res.status, bytes: (await res.arrayBuffer()).byteLength };
    }
    return new Promise((resolve, reject) => {
      const req = http.request(url, { method: init.method ?? "GET", headers: init.headers ?? {}, agent }, (res) => {
        let bytes = 0;
        res.on("data", (d) => (bytes += d.length));
        res.on("end", () => resolve({ status: res.statusCode, bytes }));
        res.on("error", reject);
      });
      req.on("error", reject);
      req.end(init.body);
    });
  }
  async function load(name, makeRequest) {
    const latencies = [];
    let errors = 0;
    const deadline = performance.now() + seconds * 1000;
    const worker = async () => {
      while (performance.now() < deadline) {
        const { url, init } = makeRequest();
        const t0 = performance.now();
        const res = await send(url, init);
        latencies.push(performance.now() - t0);
        if (res.status >= 400) errors++;
      }
    };
    const t0 = performance.now();
    await Promise.all(Array.from({ length: clients }, worker));
    const elapsed = (performance.now() - t0) / 1000;
    latencies.sort((a, b) => a - b);
    return { name, rps: latencies.length / elapsed, p50: percentile(latencies, 50), p99: percentile(latencies, 99), errors, n: latencies.length };
  }
  return { send, load, close: () => agent.destroy() };
}
