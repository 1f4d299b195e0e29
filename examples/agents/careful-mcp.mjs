#!/usr/bin/env node
// The careful reference agent over MCP only: the same rules as careful.mjs (lib/careful-policy.mjs), every read
// and write a tool call on the world's MCP endpoint. It must earn the verdicts careful.mjs earns: the world
// changes, and is graded, the same whichever way the agent reaches it.
import { carefulAgent } from "./lib/careful-policy.mjs";
import { answerWith, connect, workload } from "./lib/mcp.mjs";

const { call, close } = await connect("careful-mcp");
const tools = {
  findCustomers: async (email) => (await call("find_customers", { email, limit: 10 })).data,
  listSubscriptions: async (customer) => (await call("list_subscriptions", { customer, limit: 10 })).data,
  listCharges: async (customer) => (await call("list_charges", { customer, limit: 100 })).data,
  newestChargeCreated: async () => (await call("list_charges", { limit: 1 })).data[0]?.created,
  refund: (charge, reason, idempotencyKey) => call("refund_charge", { charge, reason, idempotency_key: idempotencyKey }),
  cancelAtPeriodEnd: (subscription) => call("cancel_subscription", { subscription, at_period_end: true }),
  cancelNow: (subscription) => call("cancel_subscription", { subscription, at_period_end: false }),
};

try {
  const { mode, tickets } = await workload(call);
  const handle = carefulAgent({ billing: tools, answer: answerWith(call), mode });
  for (const ticket of tickets) await handle(ticket);
} finally {
  await close();
}
