// Discounts in the library account: the coupons a support team hands out (a goodwill credit, a loyalty and a
// retention offer, a forever discount for a partner), a public promotion code and a one-customer code, coupons
// already applied to a few customers, and business customers' tax ids. As with disputes, only background customers
// are touched (never the cast, whom the tickets and keys name), so every existing key still holds.
import { hash32 } from "./prng.mjs";
import { CLOCK, DAY } from "./time.mjs";

const COUPONS = [
  { id: "GOODWILL-10", name: "Goodwill $10 off", amount_off: 1000, duration: "once", created: CLOCK - 300 * DAY },
  { id: "GOODWILL-25", name: "Goodwill $25 off", amount_off: 2500, duration: "once", created: CLOCK - 300 * DAY },
  { id: "LOYALTY-15-3M", name: "Loyalty 15% for 3 months", percent_off: 15, duration: "repeating", duration_in_months: 3, created: CLOCK - 240 * DAY },
  { id: "RETENTION-50-2M", name: "Retention 50% for 2 months", percent_off: 50, duration: "repeating", duration_in_months: 2, max_redemptions: 50, created: CLOCK - 200 * DAY },
  { id: "PARTNER-20", name: "Partner 20% forever", percent_off: 20, duration: "forever", created: CLOCK - 360 * DAY },
];
// Applied to background customers: which coupon, in the order the picked customers come.
const APPLIED = ["LOYALTY-15-3M", "PARTNER-20", "RETENTION-50-2M"];
// A business customer's tax id by its legal form, valid in form for the twin's own checks
// (durable-objects/stripe/resources/tax-ids.ts); the first background customer of each form gets one.
const TAX_IDS = [
  { form: / GmbH$/, type: "eu_vat", value: "DE811907980", verification: "verified" },
  { form: / SAS$/, type: "eu_vat", value: "FR40303265045", verification: "pending" },
  { form: / B\.V\.$/, type: "eu_vat", value: "NL859838452B01", verification: "verified" },
  { form: /(?<!Pty) Ltd$/, type: "gb_vat", value: "GB980780684", verification: "verified" },
  { form: / Pty Ltd$/, type: "au_abn", value: "51824753556", verification: "unavailable" },
];

export function addOffers(ledger, castIds) {
  const background = ledger.customers
    .filter((c) => !castIds.has(c.id))
    .sort((a, b) => hash32(`offer:${a.id}`) - hash32(`offer:${b.id}`) || (a.id < b.id ? -1 : 1));
  if (background.length < APPLIED.length + 1) throw new Error("too few background customers for the offers");
  const applied = background.slice(0, APPLIED.length);
  applied.forEach((c, i) => (c.coupon = APPLIED[i]));
  const promised = background[APPLIED.length];
  const times = (id) => APPLIED.filter((a) => a === id).length;
  const coupons = COUPONS.map((c) => (times(c.id) ? { ...c, times_redeemed: times(c.id) } : c));
  const promotion_codes = [
    { id: "promo_LibraryWelcomeBack", code: "WELCOMEBACK", coupon: "LOYALTY-15-3M", max_redemptions: 500, created: CLOCK - 240 * DAY },
    { id: "promo_LibraryOneCustomer", code: `SORRY${promised.id.slice(-4).toUpperCase()}`, coupon: "GOODWILL-25", customer: promised.id, max_redemptions: 1, created: CLOCK - 20 * DAY },
  ];
  const tax_ids = TAX_IDS.map(({ form, ...t }) => {
    const c = background.find((b) => form.test(b.name));
    if (!c) throw new Error(`no background customer of the form ${form} for a tax id`);
    return { id: `txi_${c.id.slice(4)}`, customer: c.id, ...t, created: Math.max(c.created, CLOCK - 180 * DAY) };
  });
  return { coupons, promotion_codes, tax_ids };
}
