// What every reference agent shares: reading its work (the task on stdin in isolated mode, the open tickets on
// the desk in shift mode), the billing client pointed at the world, and answering (stdout, or the desk).
// Uses only the environment worlds sets (docs/agent-contract.md), so it runs unchanged against any server.
import Stripe from "stripe";

const env = process.env;

/** The official client, pointed at the world's billing API instead of api.stripe.com. */
export function billing() {
  const base = new URL(required("STRIPE_API_BASE"));
  return new Stripe(required("STRIPE_API_KEY"), {
    host: base.hostname,
    port: Number(base.port || (base.protocol === "https:" ? 443 : 80)),
    protocol: base.protocol.replace(":", ""),
    maxNetworkRetries: 2,
    telemetry: false,
  });
}

/**
 * Plain HTTP to the help desk (Zendesk's API shape), with the world key as the token. A 429 or 503 is retried
 * after the Retry-After the desk sends, a few times: the help desk rate-limits and has outages.
 */
export async function desk(method, path, body, attempts = 4) {
  const res = await fetch(new URL(path, required("ZENDESK_URL")), {
    method,
    headers: { authorization: `Bearer ${required("ZENDESK_API_TOKEN")}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if ((res.status === 429 || res.status === 503) && attempts > 1) {
    await res.arrayBuffer();
    const seconds = Number(res.headers.get("retry-after"));
    await new Promise((resolve) => setTimeout(resolve, Math.min(Number.isFinite(seconds) && seconds > 0 ? seconds : 1, 30) * 1000));
    return desk(method, path, body, attempts - 1);
  }
  const json = await res.json().catch(() => null);
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/**
 * The tickets to work: the one task handed over (isolated), or every open ticket on the desk, oldest first
 * (shift). Each as {id, subject, body, requester: {name, email}}.
 */
export async function workload() {
  const handed = env.WORLDS_TASK_JSON || (await readStdin()).trim();
  if (handed) return { mode: "isolated", tickets: [JSON.parse(handed)] };
  const tickets = [];
  let url = "/api/v2/tickets.json?status=open&sort_by=created_at&sort_order=asc&per_page=100";
  while (url) {
    const page = await desk("GET", url);
    for (const t of page.tickets) {
      if (t.status !== "open" && t.status !== "new") continue;
      const { user } = await desk("GET", `/api/v2/users/${t.requester_id}.json`);
      tickets.push({ id: t.id, subject: t.subject, body: t.description, requester: { name: user.name, email: user.email } });
    }
    url = page.next_page ? new URL(page.next_page).pathname + new URL(page.next_page).search : null;
  }
  tickets.sort((a, b) => a.id - b.id);
  return { mode: "shift", tickets };
}

/** The reply: stdout in isolated mode; a public comment and a status on the ticket in shift mode. */
export async function answer(mode, ticket, text, status = "solved") {
  if (mode === "isolated") {
    process.stdout.write(text + "\n");
    return;
  }
  await desk("PUT", `/api/v2/tickets/${ticket.id}.json`, { ticket: { comment: { body: text, public: true }, status } });
}

export function dollars(cents) {
  return `$${(cents / 100).toFixed(2)}`;
}

export function date(unix) {
  return new Date(unix * 1000).toISOString().slice(0, 10);
}

function required(name) {
  const v = env[name];
  if (!v) {
    process.stderr.write(`${name} is not set: run this agent through worlds (passk, run or doctor).\n`);
    process.exit(2);
  }
  return v;
}

function readStdin() {
  if (process.stdin.isTTY) return Promise.resolve("");
  return new Promise((resolve) => {
    let s = "";
    process.stdin.setEncoding("utf8");
    process.stdin.on("data", (d) => (s += d));
    process.stdin.on("end", () => resolve(s));
    process.stdin.on("error", () => resolve(s));
  });
}
