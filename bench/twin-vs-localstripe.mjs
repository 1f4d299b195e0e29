// worlds against localstripe (a Python fake Stripe server, the peer a user would pick instead) with the same
// node:http keep-alive client, at 1 and 8 clients, in alternating rounds: GET /v1/customers/:id,
// GET /v1/customers?limit=10, POST /v1/customers and POST /v1/refunds. localstripe is found on PATH or as a
// Python module, or installed into a throwaway virtualenv inside this benchmark's temporary folder; when none
// works, its rows are skipped with the reason and worlds' own figures are printed beside its /health floor.
// Usage: [LOCALSTRIPE_SRC=<checkout>] node bench/twin-vs-localstripe.mjs [--seconds S] [--rounds R]
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fmt, startServer } from "./lib/server.mjs";
import { httpLoad } from "./lib/http-load.mjs";

const arg = (name, dflt) => (process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : dflt);
const seconds = arg("--seconds", 3);
const rounds = arg("--rounds", 3);
const work = mkdtempSync(join(tmpdir(), "worlds-bench-localstripe-"));

/** A command that starts localstripe, or the reasons none could be found or installed. */
function findLocalstripe() {
  const tried = [];
  const onPath = spawnSync("sh", ["-c", "command -v localstripe"], { encoding: "utf8" });
  if (onPath.status === 0) return { cmd: [onPath.stdout.trim()] };
  tried.push("no localstripe on PATH");
  for (const py of ["python3", "python"]) {
    const m = spawnSync(py, ["-c", "import localstripe"], { encoding: "utf8" });
    if (m.status === 0) return { cmd: [py, "-m", "localstripe"] };
    if (m.error) continue;
    tried.push(`${py} has no localstripe module`);
    const venv = join(work, "venv");
    const made = spawnSync(py, ["-m", "venv", venv], { encoding: "utf8", timeout: 120_000 });
    if (made.status !== 0) {
      tried.push(`${py} -m venv failed: ${(made.stderr || "").trim().split("\n").at(-1)}`);
      break;
    }
    // LOCALSTRIPE_SRC: a checkout of localstripe's source, for machines whose package index lacks it (its
    // dependencies, aiohttp and friends, still come from the index).
    const source = process.env.LOCALSTRIPE_SRC || "localstripe";
    const pip = spawnSync(join(venv, "bin", "pip"), ["install", "--disable-pip-version-check", "--retries", "0", "--timeout", "15", source], { encoding: "utf8", timeout: 300_000 });
    if (pip.status === 0 && existsSync(join(venv, "bin", "localstripe"))) return { cmd: [join(venv, "bin", "localstripe")] };
    tried.push(`pip install ${source} in a virtualenv failed: ${(pip.stderr || pip.stdout || "").trim().split("\n").at(-1)}${process.env.LOCALSTRIPE_SRC ? "" : " (LOCALSTRIPE_SRC=<a checkout of its source> installs from that instead)"}`);
    break;
  }
  return { error: tried.join("; ") };
}

const freePort = () => new Promise((resolve) => { const s = createServer().listen(0, "127.0.0.1", () => { const p = s.address().port; s.close(() => resolve(p)); }); });

async function startLocalstripe(cmd) {
  const port = await freePort();
  // localstripe keeps its store in /tmp/localstripe.pickle across starts (and rewrites it on every write):
  // --from-scratch so each run measures the same empty store, not whatever the last benchmark left there.
  const child = spawn(cmd[0], [...cmd.slice(1), "--port", String(port), "--from-scratch"], { detached: true, stdio: "ignore" });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    const ok = await fetch(`${url}/v1/customers`, { headers: { authorization: "Bearer sk_test_bench" } }).then((r) => r.ok, () => false);
    if (ok) return { url, stop: () => { try { process.kill(-child.pid, "SIGTERM"); } catch {} } };
    await new Promise((r) => setTimeout(r, 100));
  }
  try { process.kill(-child.pid, "SIGKILL"); } catch {}
  throw new Error("localstripe did not answer in 30 s");
}

const form = (o) => new URLSearchParams(o).toString();
const FORM = { "content-type": "application/x-www-form-urlencoded" };

/** The four cases against one Stripe-shaped server with a key; returns makeRequest functions. */
async function cases(base, key, worlds) {
  const auth = { authorization: `Bearer ${key}` };
  const post = async (path, body) => JSON.parse(await new Promise((resolve, reject) => {
    fetch(`${base}${path}`, { method: "POST", headers: { ...auth, ...FORM }, body: form(body) }).then((r) => r.text()).then(resolve, reject);
  }));
  const customer = await post("/v1/customers", { email: "bench@example.com", name: "Bench" });
  // A charge to refund one cent at a time: worlds' seed has one; on localstripe, a charge of a test card's token.
  let charge = "ch_AcmeCobalt2604";
  if (!worlds) {
    const token = await post("/v1/tokens", { "card[number]": "4242424242424242", "card[exp_month]": "12", "card[exp_year]": "2030", "card[cvc]": "123" });
    charge = (await post("/v1/charges", { amount: "100000000", currency: "usd", source: token.id })).id;
  }
  return [
    ["GET /v1/customers/:id", () => ({ url: `${base}/v1/customers/${customer.id}`, init: { headers: auth } })],
    ["GET /v1/customers?limit=10", () => ({ url: `${base}/v1/customers?limit=10`, init: { headers: auth } })],
    ["POST /v1/customers", () => ({ url: `${base}/v1/customers`, init: { method: "POST", headers: { ...auth, ...FORM }, body: form({ email: "new@example.com" }) } })],
    ["POST /v1/refunds", () => ({ url: `${base}/v1/refunds`, init: { method: "POST", headers: { ...auth, ...FORM }, body: form({ charge, amount: "1" }) } })],
  ];
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const peer = findLocalstripe();
const server = await startServer();
const load0 = loadavg();
let ls = null;
try {
  const world = await (await fetch(`${server.url}/admin/worlds`, { method: "POST", headers: { authorization: `Bearer ${server.token}`, "content-type": "application/json" }, body: JSON.stringify({ seed: "acme-small" }) })).json();
  if (peer.cmd) ls = await startLocalstripe(peer.cmd);
  const results = {}; // key: `${clients}|${case}|${who}` -> rps[]
  const push = (k, v) => (results[k] ??= []).push(v);
  for (const clients of [1, 8]) {
    const { load, close } = httpLoad({ clients, seconds });
    const wCases = await cases(server.url, world.key, true);
    const lCases = ls ? await cases(ls.url, "sk_test_bench", false) : null;
    for (let r = 0; r < rounds; r++) {
      push(`${clients}|GET /health (worlds' floor)|worlds`, (await load("health", () => ({ url: `${server.url}/health` }))).rps);
      for (let i = 0; i < wCases.length; i++) {
        push(`${clients}|${wCases[i][0]}|worlds`, (await load(wCases[i][0], wCases[i][1])).rps);
        if (lCases) push(`${clients}|${lCases[i][0]}|localstripe`, (await load(lCases[i][0], lCases[i][1])).rps);
      }
    }
    close();
  }
  const load1 = loadavg();
  console.log(`worlds vs localstripe, node:http keep-alive, ${seconds} s a measurement, ${rounds} alternating rounds; load average ${load0.map((x) => fmt(x)).join(" ")} -> ${load1.map((x) => fmt(x)).join(" ")}`);
  if (!ls) console.log(`  localstripe rows skipped: it could not be found or installed (${peer.error})`);
  const names = ["GET /health (worlds' floor)", "GET /v1/customers/:id", "GET /v1/customers?limit=10", "POST /v1/customers", "POST /v1/refunds"];
  for (const name of names) {
    const cells = [1, 8].map((c) => {
      const w = results[`${c}|${name}|worlds`];
      const l = results[`${c}|${name}|localstripe`];
      const ratio = l ? ` = ${fmt(median(w.map((x, i) => x / l[i])), 2)}x localstripe's ${fmt(median(l), 0)}` : "";
      return `${c} client${c > 1 ? "s" : ""}: ${fmt(median(w), 0)} req/s [${fmt(Math.min(...w), 0)}-${fmt(Math.max(...w), 0)}]${ratio}`;
    });
    console.log(`  ${name.padEnd(28)} ${cells.join("   ")}`);
  }
} finally {
  ls?.stop();
  await server.stop();
}
