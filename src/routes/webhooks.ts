// POST /webhooks/:provider/:hook_id (public; the provider's signature is the credential). Verifies the delivery
// exactly as the provider signs it, answers pings and challenges, drops replays by event id, and starts one run
// per new ticket, answering 202 with its id. A delivery that fails verification is refused and leaves no trace.
import { and, eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { Hono, type Context } from "hono";
import type { AppEnv } from "../env";
import { deliveries, hooks } from "../db/schema";
import { readBodyLimited } from "../http/limits";
import { createRun } from "../hosted/runs/create";
import { HOOK_ID, ticketRun, type HookConfig } from "../hosted/runs/hooks";
import { parseDelivery } from "../webhooks/normalize";
import { PROVIDERS, verifySignature, type Provider } from "../webhooks/verify";
import { adminError } from "./admin/errors";

export const webhooks = new Hono<AppEnv>();

/** Help-desk payloads are small; anything near this is not a ticket notification. */
const WEBHOOK_BODY_LIMIT = 1024 * 1024;

webhooks.post("/:provider/:hook", async (c) => {
  const provider = c.req.param("provider") as Provider;
  const hookId = c.req.param("hook");
  if (!(PROVIDERS as readonly string[]).includes(provider) || !HOOK_ID.test(hookId)) return notFound(c);
  const db = drizzle(c.env.DB);
  const hook = await db.select().from(hooks).where(eq(hooks.id, hookId)).get();
  if (!hook || hook.provider !== provider) return notFound(c);

  const raw = await readBodyLimited(c.req.raw, WEBHOOK_BODY_LIMIT);
  if (raw === null) return adminError(c, 413, "body_too_large", `A webhook body may be at most ${WEBHOOK_BODY_LIMIT} bytes.`);
  const header = (name: string) => c.req.header(name) ?? null;
  const verified = await verifySignature(provider, hook.secret, header, raw, Date.now());
  if (!verified.ok) return adminError(c, 401, "invalid_signature", `The delivery is not signed with this hook's secret: ${verified.reason}.`);

  const delivery = parseDelivery(provider, raw, header);
  if (delivery.kind === "invalid") return adminError(c, 400, "invalid_payload", `The delivery cannot start a run: ${delivery.reason}.`);
  if (delivery.kind === "ping") {
    const challenge = header("x-front-challenge");
    return challenge ? c.json({ challenge }) : c.json({ ok: true });
  }
  const now = new Date();
  // The delivery's first arrival claims its event id; a replay finds the row and starts nothing.
  const claimed = await db
    .insert(deliveries)
    .values({ hookId, eventId: delivery.eventId ?? "", runId: null, outcome: delivery.kind === "ignored" ? `ignored: ${delivery.reason}` : "starting", receivedAt: now })
    .onConflictDoNothing()
    .returning({ eventId: deliveries.eventId });
  if (claimed.length === 0) {
    const seen = await db.select().from(deliveries).where(and(eq(deliveries.hookId, hookId), eq(deliveries.eventId, delivery.eventId ?? ""))).get();
    return c.json({ replay: true, event_id: delivery.eventId, run_id: seen?.runId ?? null, outcome: seen?.outcome ?? null }, 200);
  }
  if (delivery.kind === "ignored") return c.json({ ignored: delivery.reason, event_id: delivery.eventId }, 200);

  const config = JSON.parse(hook.configJson) as HookConfig;
  const request = ticketRun(config, hookId, provider, delivery.eventId, delivery.ticket);
  const created = await createRun(c.env, request, { origin: new URL(c.req.url).origin, source: `webhook:${hookId}`, trigger: { hook: hookId, provider, event: delivery.eventId } });
  const where = and(eq(deliveries.hookId, hookId), eq(deliveries.eventId, delivery.eventId));
  if (!created.ok) {
    await db.update(deliveries).set({ outcome: `rejected: ${created.message}` }).where(where).run();
    return adminError(c, 422, created.code, `The ticket could not become a task: ${created.message}`, created.issues);
  }
  await db.update(deliveries).set({ runId: created.runId, outcome: "started" }).where(where).run();
  return c.json({ run_id: created.runId, event_id: delivery.eventId, links: { run: `/admin/runs/${created.runId}` } }, 202);
});

function notFound(c: Context<AppEnv>): Response {
  return adminError(c, 404, "hook_not_found", "No such hook on this server (POST /admin/hooks creates one and answers its URL).");
}
