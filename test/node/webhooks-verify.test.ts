import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { signAs, verifySignature } from "../../src/webhooks/verify";
import { expectedFromTags, parseDelivery } from "../../src/webhooks/normalize";

const now = Date.parse("2026-11-30T12:00:00Z");
const headers = (h: Record<string, string>) => (name: string) => h[name.toLowerCase()] ?? null;
const body = JSON.stringify({ ticket_id: "41", subject: "Charged twice", description: "Please refund one", requester: "pat@example.com" });

describe("webhook signatures", () => {
  it("verifies Zendesk's base64 HMAC-SHA256 of timestamp + body (checked against node:crypto)", async () => {
    const ts = "2026-11-30T12:00:00Z";
    const sig = createHmac("sha256", "zd-secret").update(ts + body).digest("base64");
    const h = headers({ "x-zendesk-webhook-signature": sig, "x-zendesk-webhook-signature-timestamp": ts });
    expect(await verifySignature("zendesk", "zd-secret", h, body, now)).toEqual({ ok: true });
    expect((await verifySignature("zendesk", "other", h, body, now)).ok).toBe(false);
    expect((await verifySignature("zendesk", "zd-secret", h, body + " ", now)).ok).toBe(false);
  });

  it("refuses a Zendesk delivery whose timestamp is stale", async () => {
    const h = await signAs("zendesk", "s", body, now - 6 * 60 * 1000);
    const r = await verifySignature("zendesk", "s", headers(h), body, now);
    expect(r).toEqual({ ok: false, reason: "signature timestamp is outside the 5-minute window" });
  });

  it("verifies Intercom's sha1= hex HMAC of the body", async () => {
    const sig = "sha1=" + createHmac("sha1", "ic-secret").update(body).digest("hex");
    expect(await verifySignature("intercom", "ic-secret", headers({ "x-hub-signature": sig }), body, now)).toEqual({ ok: true });
    expect((await verifySignature("intercom", "ic-secret", headers({}), body, now)).ok).toBe(false);
  });

  it("verifies Front's base64 HMAC-SHA256 of '<ms>:' + body", async () => {
    const ts = String(now - 1000);
    const sig = createHmac("sha256", "fr-secret").update(`${ts}:${body}`).digest("base64");
    const h = headers({ "x-front-signature": sig, "x-front-request-timestamp": ts });
    expect(await verifySignature("front", "fr-secret", h, body, now)).toEqual({ ok: true });
    expect((await verifySignature("front", "fr-secret", h, body, now + 10 * 60 * 1000)).ok).toBe(false);
  });

  it("signAs produces what verifySignature accepts for every provider", async () => {
    for (const p of ["zendesk", "intercom", "front"] as const) {
      const h = await signAs(p, "k", body, now);
      expect(await verifySignature(p, "k", headers(h), body, now)).toEqual({ ok: true });
    }
  });
});

describe("webhook payloads", () => {
  it("maps a Zendesk trigger body to a ticket, deduplicated on the invocation id", () => {
    const d = parseDelivery("zendesk", JSON.stringify({ ticket_id: "41", title: "Charged twice", description: "Refund one", requester: "Pat@Example.com", tags: "billing worlds_expected_refund_2430", priority: "high" }), headers({ "x-zendesk-webhook-invocation-id": "inv_1" }));
    expect(d).toEqual({
      kind: "ticket",
      eventId: "inv_1",
      ticket: { subject: "Charged twice", body: "Refund one", requester: { email: "pat@example.com", name: null }, tags: ["billing", "worlds_expected_refund_2430"], priority: "high", expected: "refund 2430", external_id: "41" },
    });
  });

  it("answers Intercom's ping and turns a new conversation's HTML into text", () => {
    expect(parseDelivery("intercom", JSON.stringify({ type: "notification_event", topic: "ping", id: "notif_1" }), headers({}))).toEqual({ kind: "ping", eventId: "notif_1" });
    const d = parseDelivery("intercom", JSON.stringify({ id: "notif_2", topic: "conversation.user.created", data: { item: { id: "c1", priority: "priority", source: { subject: "", body: "<p>Cancel <b>now</b></p><p>thanks</p>", author: { email: "a@example.com", name: "A" } }, tags: { tags: [{ name: "vip" }] } } } }), headers({}));
    expect(d.kind === "ticket" && d.ticket).toMatchObject({ subject: "Cancel now", body: "Cancel now\nthanks", priority: "high", tags: ["vip"] });
  });

  it("treats Front's sync as a ping and reads the sender of an inbound message", () => {
    expect(parseDelivery("front", JSON.stringify({ type: "sync", authorization: { id: "cmp_1" } }), headers({}))).toEqual({ kind: "ping", eventId: null });
    const d = parseDelivery("front", JSON.stringify({ type: "inbound_received", payload: { id: "evt_9", type: "inbound", conversation: { id: "cnv_1", subject: "Void invoice", tags: [] }, target: { data: { text: "Please void it", recipients: [{ handle: "b@example.com", role: "from", name: "B" }] } } } }), headers({}));
    expect(d).toMatchObject({ kind: "ticket", eventId: "evt_9", ticket: { subject: "Void invoice", body: "Please void it", requester: { email: "b@example.com", name: "B" } } });
  });

  it("refuses payloads with no requester email, and non-JSON bodies", () => {
    expect(parseDelivery("zendesk", JSON.stringify({ ticket_id: 1, subject: "x" }), headers({}))).toEqual({ kind: "invalid", reason: "the payload names no requester email" });
    expect(parseDelivery("intercom", "not json", headers({}))).toEqual({ kind: "invalid", reason: "body is not JSON" });
  });

  it("reads expected keys from tags", () => {
    expect(expectedFromTags(["worlds_expected_cancel_at_period_end"])).toBe("cancel at period end");
    expect(expectedFromTags(["worlds_expected_none"])).toBe("none");
    expect(expectedFromTags(["other"])).toBeNull();
  });
});
