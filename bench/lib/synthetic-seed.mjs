// A consistent synthetic seed of about N objects: customers, each with a subscription, a paid invoice and its
// charge and payment intent, so a world of any size has the same shape as a real account.
export function syntheticSeed(objects) {
  const perCustomer = 5; // customer, subscription, invoice, charge, payment intent
  const n = Math.max(0, Math.floor((objects - 4) / perCustomer));
  const clock = 1789819200; // 2026-09-15T12:00:00Z
  const data = {
    customers: [],
    products: [{ id: "prod_Bench", name: "Bench plan" }],
    prices: [
      { id: "price_BenchMonthly", product: "prod_Bench", unit_amount: 2900, nickname: "Bench monthly", recurring: { interval: "month" } },
      { id: "price_BenchYearly", product: "prod_Bench", unit_amount: 29000, nickname: "Bench yearly", recurring: { interval: "year" } },
      { id: "price_BenchOnce", product: "prod_Bench", unit_amount: 5000, nickname: "Bench setup" },
    ],
    subscriptions: [],
    invoices: [],
    charges: [],
    payment_intents: [],
  };
  for (let i = 0; i < n; i++) {
    const k = String(i).padStart(6, "0");
    const created = clock - 86400 * 40 - i;
    data.customers.push({ id: `cus_B${k}`, email: `c${k}@example.com`, name: `Customer ${k}`, created });
    data.subscriptions.push({ id: `sub_B${k}`, customer: `cus_B${k}`, status: "active", created, items: [{ id: `si_B${k}`, price: "price_BenchMonthly", current_period_start: clock - 86400 * 10, current_period_end: clock + 86400 * 20 }] });
    data.invoices.push({ id: `in_B${k}`, customer: `cus_B${k}`, status: "paid", subscription: `sub_B${k}`, created: clock - 86400 * 10, charge: `ch_B${k}`, payment_intent: `pi_B${k}`, amount_paid: 2900, lines: [{ id: `il_B${k}`, amount: 2900, price: "price_BenchMonthly", quantity: 1, period: { start: clock - 86400 * 10, end: clock + 86400 * 20 } }] });
    data.charges.push({ id: `ch_B${k}`, customer: `cus_B${k}`, amount: 2900, payment_intent: `pi_B${k}`, invoice: `in_B${k}`, created: clock - 86400 * 10 });
    data.payment_intents.push({ id: `pi_B${k}`, customer: `cus_B${k}`, amount: 2900, amount_received: 2900, status: "succeeded", latest_charge: `ch_B${k}`, invoice: `in_B${k}`, created: clock - 86400 * 10 });
  }
  return { version: 1, name: `bench-${objects}`, clock: "2026-09-15T12:00:00Z", currency: "usd", data };
}

export function countObjects(seed) {
  return Object.values(seed.data).reduce((a, v) => a + v.length, 0);
}
