// Scenarios through the twin: each library scenario's misbehaviour, request by request, in each service's idiom,
// and the admin API's resolution of names and documents.
import { describe, expect, it } from "vitest";
import { billingSeed, call, diff, form } from "./stripe-helpers";
import { HELPDESK_SEED } from "./helpdesk-world";
import rateLimitStorm from "../../scenarios/rate-limit-storm.json";
import slowApi from "../../scenarios/slow-api.json";
import flakyWrites from "../../scenarios/flaky-writes.json";
import staleReads from "../../scenarios/stale-reads.json";
import { parseScenario } from "../../src/core/kinds/account/scenario/schema";

const admin = { authorization: "Bearer test-token", "content-type": "application/json" };

interface World {
  id: string;
  key: string;
}

async function world(scenario: unknown, seed: unknown = billingSeed()): Promise<World> {
  const res = await call("/admin/worlds", { method: "POST", headers: admin, body: JSON.stringify({ seed, scenario }) });
  if (res.status !== 201) throw new Error(`world creation failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as World;
}

function stripe(w: World, method: string, path: string, params?: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Response> {
  const body = params ? form(params) : "";
  const get = method === "GET";
  return call(get && body ? `${path}?${body}` : path, {
    method,
    headers: { authorization: `Bearer ${w.key}`, "content-type": "application/x-www-form-urlencoded", ...headers },
    body: get ? undefined : body,
  });
}

function desk(w: World, method: string, path: string, body?: unknown): Promise<Response> {
  return call(`/api/v2/${path}`, {
    method,
    headers: { authorization: `Bearer ${w.key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function statuses(w: World, n: number, request: (w: World) => Promise<Response>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await request(w);
    await res.arrayBuffer();
    out.push(res.status);
  }
  return out;
}

describe("scenario documents", () => {
  it("every library file is a valid scenario named like its file", () => {
    for (const [file, doc] of Object.entries({ "rate-limit-storm": rateLimitStorm, "slow-api": slowApi, "flaky-writes": flakyWrites, "stale-reads": staleReads })) {
      const parsed = parseScenario(doc);
      expect(parsed.ok, file).toBe(true);
      if (parsed.ok) expect(parsed.scenario.name).toBe(file);
    }
  });

  it("an unknown name is a 404 that lists the library", async () => {
    const res = await call("/admin/worlds", { method: "POST", headers: admin, body: JSON.stringify({ seed: billingSeed(), scenario: "thunderstorm" }) });
    expect(res.status).toBe(404);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("scenario_not_found");
    for (const name of ["flaky-writes", "rate-limit-storm", "slow-api", "stale-reads"]) expect(body.error.message).toContain(name);
  });

  it("an invalid inline document is a 400 naming the field", async () => {
    const scenario = { version: 1, name: "mine", description: "all refused", rules: [{ kind: "rate_limit", services: ["stripe"], every: 2, refuse: [1, 2], retry_after: 1 }] };
    const res = await call("/admin/worlds", { method: "POST", headers: admin, body: JSON.stringify({ seed: billingSeed(), scenario }) });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; issues: Array<{ path: string; message: string }> } };
    expect(body.error.code).toBe("invalid_scenario");
    expect(body.error.issues[0].path).toBe("rules[0].refuse");
  });

  it("two rules of one kind on one service are refused", () => {
    const parsed = parseScenario({ version: 1, name: "twice", description: "x", rules: [{ kind: "stale_reads", services: ["stripe"] }, { kind: "stale_reads", services: ["helpdesk", "stripe"] }] });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.issues[0]).toEqual({ path: "rules[1].services", message: "rules[0] already applies stale_reads to stripe" });
  });
});

describe("rate-limit-storm", () => {
  it("refuses the 2nd and 3rd of every five billing requests with the billing API's 429", async () => {
    const w = await world("rate-limit-storm");
    const seen = await statuses(w, 10, (x) => stripe(x, "GET", "/v1/customers", { limit: 1 }));
    expect(seen).toEqual([200, 429, 429, 200, 200, 200, 429, 429, 200, 200]);
    const res = await stripe(w, "GET", "/v1/customers/cus_Alice");
    expect(res.status).toBe(200); // the 11th: position 1 of the cycle
    const refused = await stripe(w, "POST", "/v1/customers", { email: "x@example.com" }, { "idempotency-key": "k-1" });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(refused.headers.get("stripe-should-retry")).toBe("true");
    expect(refused.headers.get("idempotency-key")).toBe("k-1");
    expect(refused.headers.get("request-id")).toMatch(/^req_/);
    const body = (await refused.json()) as { error: Record<string, string> };
    expect(body.error.type).toBe("invalid_request_error");
    expect(body.error.code).toBe("rate_limit");
    expect(body.error.doc_url).toBe("https://stripe.com/docs/error-codes/rate-limit");
    // Refused before it ran: the retry with the same key creates the customer once.
    const retried = await stripe(w, "POST", "/v1/customers", { email: "x@example.com" }, { "idempotency-key": "k-1" });
    expect(retried.status).toBe(429);
    const third = await stripe(w, "POST", "/v1/customers", { email: "x@example.com" }, { "idempotency-key": "k-1" });
    expect(third.status).toBe(200);
    expect((await diff(w)).entries.filter((e) => e.type === "customers" && e.op === "created")).toHaveLength(1);
  });

  it("counts the help desk's requests on their own and answers in its idiom", async () => {
    const w = await world("rate-limit-storm", HELPDESK_SEED);
    await (await stripe(w, "GET", "/v1/customers")).arrayBuffer(); // billing traffic does not move the desk's count
    const seen = await statuses(w, 5, (x) => desk(x, "GET", "tickets.json"));
    expect(seen).toEqual([200, 429, 429, 200, 200]);
    const res = await desk(w, "GET", "tickets/101.json");
    expect(res.status).toBe(200);
    const refused = await desk(w, "GET", "tickets/101.json");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(refused.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(refused.headers.get("x-rate-limit-remaining")).toBe("0");
    expect(await refused.text()).toMatch(/Too Many Requests/);
  });

  it("is the same schedule in every world: the sequence, not the clock, decides", async () => {
    const a = await world("rate-limit-storm");
    const b = await world("rate-limit-storm");
    const run = (w: World) => statuses(w, 7, (x) => stripe(x, "GET", "/v1/charges"));
    expect(await run(a)).toEqual(await run(b));
  });
});

describe("slow-api", () => {
  it("holds every answer back by the rule's latency, and the spikes longer", async () => {
    const scenario = { version: 1, name: "quick-slow", description: "test latency", rules: [{ kind: "latency", services: ["stripe"], ms: 120, spike: { every: 3, ms: 600 } }] };
    const w = await world(scenario);
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t0 = Date.now();
      const res = await stripe(w, "GET", "/v1/customers");
      await res.arrayBuffer();
      expect(res.status).toBe(200);
      times.push(Date.now() - t0);
    }
    expect(times[0]).toBeGreaterThanOrEqual(115);
    expect(times[1]).toBeGreaterThanOrEqual(115);
    expect(times[2]).toBeGreaterThanOrEqual(595);
    // The help desk is not in the rule.
    const t0 = Date.now();
    await (await desk(w, "GET", "tickets.json")).arrayBuffer();
    expect(Date.now() - t0).toBeLessThan(115);
  });

  it("the library's slow-api adds its 200 ms to both services", async () => {
    const w = await world("slow-api", HELPDESK_SEED);
    for (const request of [() => stripe(w, "GET", "/v1/customers"), () => desk(w, "GET", "tickets.json")]) {
      const t0 = Date.now();
      const res = await request();
      await res.arrayBuffer();
      expect(res.status).toBe(200);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(195);
    }
  });
});

describe("flaky-writes", () => {
  it("fails a write's first attempt with 503 before it runs, and the same key then works once", async () => {
    const w = await world("flaky-writes");
    const params = { email: "dana@example.com", name: "Dana" };
    const first = await stripe(w, "POST", "/v1/customers", params, { "idempotency-key": "cus-1" });
    expect(first.status).toBe(503);
    expect(first.headers.get("stripe-should-retry")).toBe("true");
    const body = (await first.json()) as { error: Record<string, string> };
    expect(body.error.type).toBe("api_error");
    expect((await diff(w)).entries).toHaveLength(0);

    const second = await stripe(w, "POST", "/v1/customers", params, { "idempotency-key": "cus-1" });
    expect(second.status).toBe(200);
    const created = (await second.json()) as { id: string };
    const third = await stripe(w, "POST", "/v1/customers", params, { "idempotency-key": "cus-1" });
    expect(third.status).toBe(200);
    expect(third.headers.get("idempotent-replayed")).toBe("true");
    expect(((await third.json()) as { id: string }).id).toBe(created.id);
    expect((await diff(w)).entries.filter((e) => e.op === "created")).toHaveLength(1);
  });

  it("without a key, the same request again is the retry; reads never fail", async () => {
    const w = await world("flaky-writes");
    expect((await stripe(w, "GET", "/v1/customers")).status).toBe(200);
    const update = () => stripe(w, "POST", "/v1/customers/cus_Alice", { name: "Alice A." });
    expect((await update()).status).toBe(503);
    expect((await update()).status).toBe(200);
    // A different write is a new first attempt.
    expect((await stripe(w, "POST", "/v1/customers/cus_Alice", { name: "Alice B." })).status).toBe(503);
    // The help desk is not in the library rule.
    const desk1 = await world("flaky-writes", HELPDESK_SEED);
    expect((await desk(desk1, "PUT", "tickets/101.json", { ticket: { status: "pending" } })).status).toBe(200);
  });

  it("a help desk rule answers 503 with Retry-After", async () => {
    const scenario = { version: 1, name: "desk-flaky", description: "x", rules: [{ kind: "flaky_writes", services: ["helpdesk"], failures: 2 }] };
    const w = await world(scenario, HELPDESK_SEED);
    const put = () => desk(w, "PUT", "tickets/101.json", { ticket: { status: "pending" } });
    const a = await put();
    expect(a.status).toBe(503);
    expect(a.headers.get("retry-after")).toBe("1");
    expect(((await a.json()) as { error: string }).error).toBe("ServiceUnavailable");
    expect((await put()).status).toBe(503);
    expect((await put()).status).toBe(200);
  });
});

describe("stale-reads", () => {
  it("the first billing list after a write answers as before it; the next one and retrieves are current", async () => {
    const w = await world("stale-reads");
    const created = (await (await stripe(w, "POST", "/v1/customers", { email: "new@example.com", name: "New" })).json()) as { id: string };
    // Retrieve is current.
    expect((await stripe(w, "GET", `/v1/customers/${created.id}`)).status).toBe(200);
    const ids = async () => ((await (await stripe(w, "GET", "/v1/customers", { limit: 100 })).json()) as { data: Array<{ id: string }> }).data.map((c) => c.id);
    const stale = await ids();
    expect(stale).not.toContain(created.id);
    expect(stale).toContain("cus_Alice");
    expect(await ids()).toContain(created.id);
    // The lag left the world alone: the diff holds the creation exactly once.
    expect((await diff(w)).entries.filter((e) => e.id === created.id)).toHaveLength(1);
  });

  it("an update is seen in the list before it, and search lags too", async () => {
    const w = await world("stale-reads");
    expect((await stripe(w, "POST", "/v1/customers/cus_Alice", { name: "Alice Renamed" })).status).toBe(200);
    const search = (await (await stripe(w, "GET", "/v1/customers/search", { query: "email:'alice@example.com'" })).json()) as { data: Array<{ name: string }> };
    expect(search.data[0].name).toBe("Alice Anders");
    const list = (await (await stripe(w, "GET", "/v1/customers", { email: "alice@example.com" })).json()) as { data: Array<{ name: string }> };
    expect(list.data[0].name).toBe("Alice Renamed");
  });

  it("lags the help desk's ticket list behind an update", async () => {
    const w = await world("stale-reads", HELPDESK_SEED);
    expect((await desk(w, "PUT", "tickets/101.json", { ticket: { status: "solved", comment: { body: "Refunded.", public: true } } })).status).toBe(200);
    const statusOf = async () => ((await (await desk(w, "GET", "tickets.json")).json()) as { tickets: Array<{ id: number; status: string }> }).tickets.find((t) => t.id === 101)!.status;
    expect(await statusOf()).toBe("open");
    expect(await statusOf()).toBe("solved");
  });
});
