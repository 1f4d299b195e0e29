#!/usr/bin/env node
// An example LLM agent for any OpenAI-compatible chat endpoint, with the billing API as tools. Not used by
// tests or selftest (it needs a key and a network). Run it like any agent:
//   OPENAI_API_KEY=... [OPENAI_BASE_URL=https://api.openai.com/v1] [OPENAI_MODEL=gpt-4o-mini] \
//     npx worlds passk --tasks examples/agents/selftest.tasks.yaml --server auto -- node examples/agents/llm-agent.mjs
import { answer, billing, workload } from "./lib/world.mjs";

const key = process.env.OPENAI_API_KEY;
if (!key) {
  process.stderr.write("llm-agent.mjs: set OPENAI_API_KEY (and OPENAI_BASE_URL / OPENAI_MODEL for other endpoints).\n");
  process.exit(2);
}
const base = (process.env.OPENAI_BASE_URL ?? "https://api.openai.com/v1").replace(/\/+$/, "");
const model = process.env.OPENAI_MODEL ?? "gpt-4o-mini";
const MAX_TURNS = 12;

const stripe = billing();
const tool = (name, description, properties, required = Object.keys(properties)) => ({ type: "function", function: { name, description, parameters: { type: "object", properties, required } } });
const str = { type: "string" };
const TOOLS = [
  tool("find_customers", "Customers with this email address.", { email: str }),
  tool("list_charges", "The customer's charges, newest first.", { customer: str }),
  tool("list_invoices", "The customer's invoices, newest first.", { customer: str }),
  tool("list_subscriptions", "The customer's subscriptions (all statuses).", { customer: str }),
  tool("refund_charge", "Refund a charge; amount in cents, omit for the whole remaining amount.", { charge: str, amount: { type: "integer" }, reason: { type: "string", enum: ["duplicate", "requested_by_customer"] } }, ["charge"]),
  tool("cancel_at_period_end", "Schedule a subscription to end at the end of its current period.", { subscription: str }),
  tool("cancel_now", "Cancel a subscription immediately.", { subscription: str }),
  tool("credit_balance", "Add a credit (in cents, positive) to the customer's balance.", { customer: str, amount: { type: "integer" }, description: str }),
];

const RUN = {
  find_customers: ({ email }) => stripe.customers.list({ email, limit: 10 }),
  list_charges: ({ customer }) => stripe.charges.list({ customer, limit: 20 }),
  list_invoices: ({ customer }) => stripe.invoices.list({ customer, limit: 20 }),
  list_subscriptions: ({ customer }) => stripe.subscriptions.list({ customer, status: "all", limit: 10 }),
  refund_charge: ({ charge, amount, reason }) => stripe.refunds.create({ charge, ...(amount ? { amount } : {}), ...(reason ? { reason } : {}) }),
  cancel_at_period_end: ({ subscription }) => stripe.subscriptions.update(subscription, { cancel_at_period_end: true }),
  cancel_now: ({ subscription }) => stripe.subscriptions.cancel(subscription),
  credit_balance: ({ customer, amount, description }) => stripe.customers.createBalanceTransaction(customer, { amount: -Math.abs(amount), currency: "usd", description }),
};

const SYSTEM =
  "You are a billing support agent. Use the tools to look things up before acting. Only change what the customer asks for, " +
  "on the customer who wrote in; when the account or the request is ambiguous, change nothing and say a colleague will follow up. " +
  "Never claim an action you did not take. Finish with the reply to the customer as plain text.";

const { mode, tickets } = await workload();
for (const ticket of tickets) {
  const reply = await work(ticket);
  await answer(mode, ticket, reply, /colleague/i.test(reply) ? "hold" : "solved");
}

async function work(ticket) {
  const messages = [
    { role: "system", content: SYSTEM },
    { role: "user", content: `Ticket from ${ticket.requester.name} <${ticket.requester.email}>\nSubject: ${ticket.subject}\n\n${ticket.body}` },
  ];
  for (let turn = 0; turn < MAX_TURNS; turn++) {
    const res = await fetch(`${base}/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ model, messages, tools: TOOLS, temperature: 0 }),
    });
    if (!res.ok) throw new Error(`chat endpoint: ${res.status} ${await res.text()}`);
    const msg = (await res.json()).choices[0].message;
    messages.push(msg);
    if (!msg.tool_calls?.length) return msg.content ?? "";
    for (const call of msg.tool_calls) {
      let content;
      try {
        content = JSON.stringify(await RUN[call.function.name](JSON.parse(call.function.arguments || "{}")));
      } catch (e) {
        content = JSON.stringify({ error: e.message });
      }
      messages.push({ role: "tool", tool_call_id: call.id, content: content.slice(0, 20_000) });
    }
  }
  return "Thanks for your patience. A colleague will follow up on this ticket.";
}
