// Acme's price list: three plans, each monthly and yearly (ten months for the price of twelve), an extra-seat
// add-on and a one-time onboarding package. Ids are stable so tickets and keys can name them.
import { CLOCK, DAY } from "./time.mjs";

const created = CLOCK - 900 * DAY; // the catalog predates every customer

export const PLANS = {
  starter: { name: "Starter", product: "prod_AcmeStarter01", month: 2900, year: 29000 },
  growth: { name: "Growth", product: "prod_AcmeGrowth001", month: 9900, year: 99000 },
  scale: { name: "Scale", product: "prod_AcmeScale0001", month: 34900, year: 349000 },
};
export const PLAN_ORDER = ["starter", "growth", "scale"];

export const SEATS = { product: "prod_AcmeExtraSeats", month: 1200, year: 12000 };
export const ONBOARDING = { product: "prod_AcmeOnboarding", price: "price_AcmeOnboarding450", amount: 45000 };

/** The recurring price id of a plan (or the seat add-on) for an interval. */
export function priceId(plan, interval) {
  const tag = interval === "year" ? "Yearly" : "Monthly";
  if (plan === "seats") return `price_AcmeSeats${tag}`;
  return `price_Acme${PLANS[plan].name}${tag}`;
}

export function planAmount(plan, interval) {
  if (plan === "seats") return SEATS[interval];
  return PLANS[plan][interval];
}

export function planLabel(plan, interval) {
  return `${PLANS[plan].name} ${interval === "year" ? "yearly" : "monthly"}`;
}

export function catalog() {
  const products = [
    ...PLAN_ORDER.map((p) => ({
      id: PLANS[p].product,
      name: `Acme ${PLANS[p].name}`,
      active: true,
      description: {
        starter: "For small teams getting organised: 3 members, core boards and docs.",
        growth: "For growing teams: 10 members, automations, guest access and reporting.",
        scale: "For larger organisations: 25 members, SSO, audit log and priority support.",
      }[p],
      created,
    })),
    { id: SEATS.product, name: "Extra seats", active: true, description: "Members beyond the plan's included seats.", created },
    { id: ONBOARDING.product, name: "Onboarding package", active: true, description: "Guided setup and two training sessions.", created },
  ];
  const prices = [];
  for (const p of PLAN_ORDER) {
    for (const interval of ["month", "year"]) {
      prices.push({
        id: priceId(p, interval),
        product: PLANS[p].product,
        unit_amount: PLANS[p][interval],
        currency: "usd",
        nickname: planLabel(p, interval),
        active: true,
        lookup_key: `${p}_${interval === "year" ? "yearly" : "monthly"}`,
        recurring: { interval, interval_count: 1 },
        created,
      });
    }
  }
  for (const interval of ["month", "year"]) {
    prices.push({
      id: priceId("seats", interval),
      product: SEATS.product,
      unit_amount: SEATS[interval],
      currency: "usd",
      nickname: `Extra seat ${interval === "year" ? "yearly" : "monthly"}`,
      active: true,
      lookup_key: `extra_seat_${interval === "year" ? "yearly" : "monthly"}`,
      recurring: { interval, interval_count: 1 },
      created,
    });
  }
  prices.push({
    id: ONBOARDING.price,
    product: ONBOARDING.product,
    unit_amount: ONBOARDING.amount,
    currency: "usd",
    nickname: "Onboarding package",
    active: true,
    lookup_key: "onboarding_package",
    recurring: null,
    created,
  });
  return { products, prices };
}
