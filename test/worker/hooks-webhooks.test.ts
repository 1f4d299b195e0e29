// Webhook-triggered runs: a hook per help desk; each signed delivery of a new ticket starts exactly one run of
// that ticket as a task; bad, missing or stale signatures and replayed event ids start nothing.
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { signAs } from "../../src/webhooks/verify";
import { admin, AGENT_SECRET, AGENT_URL, call, carefulAgent, json, mockAgent, replyWith, waitForRun } from "./runs-helpers";

let agent: ReturnType<typeof mockAgent> | null = null;
afterEach(() => agent?.restore());

async function newHook(body: Record<string, unknown>): Promise<{ id: string; url: string }> {
  const res = await call("/admin/hooks", { method: "POST", headers: admin, body: JSON.stringify({ agent: { url: AGENT_URL, secret: AGENT_SECRET }, ...body }) });
  expect(res.status).toBe(201);
  return json(res);
}

const counts = async () => ({
  runs: (await env.DB.prepare("SELECT count(*) AS n FROM runs WHERE source LIKE 'webhook:%'").first<{ n: number }>())!.n,
  deliveries: (await env.DB.prepare("SELECT count(*) AS n FROM deliveries").first<{ n: number }>())!.n,
});

const ticket = (over: Record<string, unknown> = {}) =>
  JSON.stringify({
    ticket_id: "4711",
    subject: "Charged twice for September",
    description: "Hi, our September payment of $99.00 went through twice on the card. Please refund the duplicate one.",
    requester: "billing.northwind@example.com",
    requester_name: "Priya",
    tags: "billing duplicate worlds_expected_refund_9900",
    priority: "high",
    ...over,
  });

async function deliver(url: string, body: string, headers: Record<string, string>): Promise<Response> {
  return call(new URL(url).pathname, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
}

describe("webhook-triggered runs", () => {
  it("starts exactly one graded run for a signed Zendesk ticket and drops its replay", async () => {
    agent = mockAgent(replyWith(carefulAgent));
    const hook = await newHook({ provider: "zendesk", secret: "zendesk-signing-secret", seed: "acme-small", runs: 2 });
    expect(hook.url).toBe(`http://twin.test/webhooks/zendesk/${hook.id}`);
    const body = ticket();
    const signed = { ...(await signAs("zendesk", "zendesk-signing-secret", body, Date.now())), "x-zendesk-webhook-invocation-id": "inv-1" };
    const started = Date.now();
    const res = await deliver(hook.url, body, signed);
    expect(res.status).toBe(202);
    expect(Date.now() - started).toBeLessThan(2_000);
    const { run_id } = await json<{ run_id: string }>(res);
    expect(await counts()).toEqual({ runs: 1, deliveries: 1 });

    const replay = await deliver(hook.url, body, signed);
    expect(replay.status).toBe(200);
    expect(await json(replay)).toMatchObject({ replay: true, run_id, outcome: "started" });
    expect(await counts()).toEqual({ runs: 1, deliveries: 1 });

    const done = await waitForRun(run_id);
    expect(done.source).toBe(`webhook:${hook.id}`);
    expect(done.results.tasks.items).toEqual([expect.objectContaining({ id: "zendesk-4711", keyed: true, expected: "refund 9900" })]);
    expect(done.results.runs.map((r) => r.worlds[0].verdict)).toEqual(["passed", "passed"]);
    expect(done.results.status).toBe("passed");
  });

  it("refuses bad, missing and stale signatures with 401 and stores nothing", async () => {
    const hook = await newHook({ provider: "zendesk", secret: "zendesk-signing-secret", seed: "acme-small" });
    const body = ticket({ ticket_id: "9" });
    const before = await counts();
    const wrong = await signAs("zendesk", "not-the-secret", body, Date.now());
    expect((await deliver(hook.url, body, { ...wrong, "x-zendesk-webhook-invocation-id": "inv-bad" })).status).toBe(401);
    expect((await deliver(hook.url, body, { "x-zendesk-webhook-invocation-id": "inv-none" })).status).toBe(401);
    const stale = await signAs("zendesk", "zendesk-signing-secret", body, Date.now() - 10 * 60 * 1000);
    const res = await deliver(hook.url, body, { ...stale, "x-zendesk-webhook-invocation-id": "inv-stale" });
    expect(res.status).toBe(401);
    expect(JSON.stringify(await json(res))).toContain("outside the 5-minute window");
    const tampered = await signAs("zendesk", "zendesk-signing-secret", body, Date.now());
    expect((await deliver(hook.url, body.replace("$99.00", "$990.00"), { ...tampered, "x-zendesk-webhook-invocation-id": "inv-t" })).status).toBe(401);
    expect(await counts()).toEqual(before);
  });

  it("answers Intercom's ping and Front's challenge, and starts runs from their tickets", async () => {
    agent = mockAgent(replyWith(carefulAgent));
    const intercom = await newHook({ provider: "intercom", secret: "intercom-client-secret", seed: "acme-small" });
    const ping = JSON.stringify({ type: "notification_event", topic: "ping", id: "notif_ping", data: { item: {} } });
    const pong = await deliver(intercom.url, ping, await signAs("intercom", "intercom-client-secret", ping, Date.now()));
    expect(pong.status).toBe(200);
    const conv = JSON.stringify({
      type: "notification_event",
      topic: "conversation.user.created",
      id: "notif_1",
      data: { item: { id: "215", source: { subject: "When do we renew?", body: "<p>Just confirming the renewal date. No changes needed, please do not touch anything.</p>", author: { email: "founders.nimbus@example.com", name: "Ana" } }, tags: { tags: [{ name: "worlds_expected_none" }] } } },
    });
    const started = await deliver(intercom.url, conv, await signAs("intercom", "intercom-client-secret", conv, Date.now()));
    expect(started.status).toBe(202);
    const done = await waitForRun((await json<{ run_id: string }>(started)).run_id);
    expect(done.results.runs[0].worlds[0]).toMatchObject({ task: "intercom-215", verdict: "passed" });

    const front = await newHook({ provider: "front", secret: "front-app-secret", seed: "acme-small" });
    const sync = JSON.stringify({ type: "sync" });
    const challenged = await deliver(front.url, sync, { ...(await signAs("front", "front-app-secret", sync, Date.now())), "x-front-challenge": "c-123" });
    expect(challenged.status).toBe(200);
    expect(await json(challenged)).toEqual({ challenge: "c-123" });
    const unsigned = await deliver(front.url, sync, { "x-front-challenge": "c-123" });
    expect(unsigned.status).toBe(401);
  });

  it("runs a ticket without a key on a hook made with only seed:, gated by the starter invariants", async () => {
    agent = mockAgent(replyWith(carefulAgent));
    const hook = await newHook({ provider: "zendesk", secret: "zendesk-signing-secret", seed: "acme-small" });
    const body = ticket({ ticket_id: "88", tags: "billing" });
    const signed = { ...(await signAs("zendesk", "zendesk-signing-secret", body, Date.now())), "x-zendesk-webhook-invocation-id": "inv-88" };
    const res = await deliver(hook.url, body, signed);
    expect(res.status).toBe(202);
    const { run_id } = await json<{ run_id: string }>(res);
    const done = await waitForRun(run_id);
    expect(done.results.tasks.items).toEqual([expect.objectContaining({ id: "zendesk-88", keyed: false, expected: null })]);
    expect(done.results.tasks.invariants).toEqual(["deleted.customers==0", "created.subscriptions==0"]);
  });

  it("takes its settings from a hook's tasks file, and answers 422 for a ticket the seed cannot place (remembered for replays)", async () => {
    const tasks = "version: 1\nseed: acme-small\ninvariants:\n  - deleted.customers==0\ntasks:\n  - requester: billing.northwind@example.com\n    subject: x\n    body: y\n";
    const hook = await newHook({ provider: "zendesk", secret: "zendesk-signing-secret", tasks });
    const stranger = ticket({ ticket_id: "77", requester: "nobody@unknown.example" });
    const signed = { ...(await signAs("zendesk", "zendesk-signing-secret", stranger, Date.now())), "x-zendesk-webhook-invocation-id": "inv-77" };
    const res = await deliver(hook.url, stranger, signed);
    expect(res.status).toBe(422);
    expect(JSON.stringify(await json(res))).toContain("nobody@unknown.example");
    const again = await deliver(hook.url, stranger, signed);
    expect(again.status).toBe(200);
    expect(await json(again)).toMatchObject({ replay: true, run_id: null, outcome: expect.stringMatching(/^rejected: /) });
    const bad = await call("/admin/hooks", { method: "POST", headers: admin, body: JSON.stringify({ provider: "zendesk", secret: "zendesk-signing-secret", seed: "nowhere", agent: { url: AGENT_URL, secret: AGENT_SECRET } }) });
    expect(bad.status).toBe(400);
    expect((await call(`/webhooks/zendesk/hk_AAAAAAAAAAAAAAAA`, { method: "POST", body: "{}" })).status).toBe(404);
    expect((await call(`/webhooks/intercom/${hook.id}`, { method: "POST", body: "{}" })).status).toBe(404);
  });
});
