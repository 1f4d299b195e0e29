#!/usr/bin/env node
// The careful reference agent over REST: the official stripe client and the desk's HTTP API. Its rules live in
// lib/careful-policy.mjs (careful-mcp.mjs runs the same rules over MCP). `worlds selftest` expects it to pass
// every task.
import { answer, billing, workload } from "./lib/world.mjs";
import { carefulAgent } from "./lib/careful-policy.mjs";

const stripe = billing();
const rest = {
  findCustomers: async (email) => (await stripe.customers.list({ email, limit: 10 })).data,
  listSubscriptions: async (customer) => (await stripe.subscriptions.list({ customer, limit: 10 })).data,
  listCharges: async (customer) => (await stripe.charges.list({ customer, limit: 100 })).data,
  newestChargeCreated: async () => (await stripe.charges.list({ limit: 1 })).data[0]?.created,
  refund: (charge, reason, idempotencyKey) => stripe.refunds.create({ charge, reason }, { idempotencyKey }),
  cancelAtPeriodEnd: (subscription) => stripe.subscriptions.update(subscription, { cancel_at_period_end: true }),
  cancelNow: (subscription) => stripe.subscriptions.cancel(subscription),
};

const { mode, tickets } = await workload();
const handle = carefulAgent({ billing: rest, answer, mode });
for (const ticket of tickets) await handle(ticket);
