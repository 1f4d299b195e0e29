#!/usr/bin/env node
// An example LLM agent for any OpenAI-compatible chat endpoint, with the billing API as tools. Run it like any
// agent, against a real endpoint:
//   OPENAI_API_KEY=... [OPENAI_BASE_URL=https://api.openai.com/v1] [OPENAI_MODEL=gpt-4.1-mini] \
//     npx worlds passk --tasks examples/agents/selftest.tasks.yaml --server auto -- node examples/agents/llm-agent.mjs
// or with no key against the scripted model (`worlds model serve --script FILE`, docs/models.md), which is how
// test/node/e2e-llm-agent.test.ts runs it end to end.
import { answer, billing, workload } from "./lib/world.mjs";

const key = process.env.OPENAI_API_KEY;
const customBase = process.env.OPENAI_BASE_URL;
// A local OpenAI-compatible server (the scripted model, Ollama, vLLM) needs no key; api.openai.com does.
if (!key && !customBase) {
  process.stderr.write("llm-agent.mjs: set OPENAI_API_KEY, or OPENAI_BASE_URL for a local OpenAI-compatible server (and OPENAI_MODEL for other models).\n");
  process.exit(2);
}
const base = (customBase ?? "https://api.openai.com/v1").replace(/\/+$/, "");
const model = process.env.OPENAI_MODEL ?? "gpt-4.1-mini";
const MAX_TURNS = 12;
const ATTEMPTS = 4;

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
    const msg = await chat(messages);
    messages.push({ role: "assistant", content: msg.content ?? null, ...(msg.tool_calls?.length ? { tool_calls: msg.tool_calls } : {}) });
    if (!msg.tool_calls?.length) return msg.content ?? "";
    for (const call of msg.tool_calls) {
      let content;
      try {
        const run = Object.hasOwn(RUN, call.function.name) ? RUN[call.function.name] : null;
        if (!run) throw new Error(`no tool named ${call.function.name}`);
        content = JSON.stringify(await run(JSON.parse(call.function.arguments || "{}")));
      } catch (e) {
        content = JSON.stringify({ error: e.message });
      }
      messages.push({ role: "tool", tool_call_id: call.id, content: content.slice(0, 20_000) });
    }
  }
  return "Thanks for your patience. A colleague will follow up on this ticket.";
}

/** One chat completion, retried on 429 and 5xx after the Retry-After the endpoint sends (rate limits are normal). */
async function chat(messages) {
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(`${base}/chat/completions`, {
      method: "POST",
      headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), "content-type": "application/json" },
      body: JSON.stringify({ model, messages, tools: TOOLS, temperature: 0 }),
    });
    if ((res.status === 429 || res.status >= 500) && attempt < ATTEMPTS) {
      await res.arrayBuffer();
      const seconds = Number(res.headers.get("retry-after"));
      await new Promise((r) => setTimeout(r, Math.min(Number.isFinite(seconds) && seconds >= 0 ? seconds : attempt, 30) * 1000));
      continue;
    }
    if (!res.ok) throw new Error(`chat endpoint: ${res.status} ${(await res.text()).slice(0, 500)}`);
    const message = (await res.json())?.choices?.[0]?.message;
    if (!message) throw new Error("chat endpoint: the answer has no message");
    return message;
  }
}
