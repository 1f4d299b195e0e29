// The help desk's order: tickets 1-30 are the benchmark inbox (every trap class at least twice, one collision
// pair), then the library's cases. A collision's follow-up always comes after the ticket it follows.
import { Rng } from "./prng.mjs";
import { CLOCK, HOUR } from "./time.mjs";
import { accountScenarios } from "./tickets/accounts.mjs";
import { creditScenarios } from "./tickets/credits.mjs";
import { escalationScenarios } from "./tickets/escalations.mjs";
import { invoiceScenarios } from "./tickets/invoices.mjs";
import { questionScenarios } from "./tickets/questions.mjs";
import { refundScenarios } from "./tickets/refunds.mjs";
import { subscriptionScenarios } from "./tickets/subscriptions.mjs";

export const SCENARIOS = {
  ...refundScenarios,
  ...accountScenarios,
  ...subscriptionScenarios,
  ...invoiceScenarios,
  ...creditScenarios,
  ...escalationScenarios,
  ...questionScenarios,
};

export const BENCHMARK_SIZE = 30;

export const INBOX = [
  // the benchmark inbox
  "dup-tealharbor", "cancel-juniper", "ask-yusuf", "collision-petra-1", "credit-lars",
  "late-lumen", "wrong-halvorsen-refund", "partial-brightpath", "plan-willowbrook", "embedded-paperkite",
  "void-granite", "refunded-foxglove", "shared-harbor-charges", "dispute-fernhill", "cancel-amara",
  "credit-larkspur", "dup-kofi", "plan-chiara", "cn-ingrid", "ask-tidewater",
  "collision-petra-2", "partial-marisol", "wrong-brightline-void", "embedded-wanjiru", "late-bjorn",
  "shared-priya-refund", "legal-jamal", "credit-nettle", "cancel-zephyr", "refunded-tomasz",
  // the library's cases
  "dup-riverbend", "cancel-dalia", "cn-quarry", "ask-vantage", "collision-bluefin-1",
  "credit-rosa", "wrong-halvorsen-cancel", "late-saltmarsh", "embedded-stonefly", "plan-amberline",
  "partial-upland", "shared-kestrel-void", "legal-highmoor", "refunded-verdant", "void-nimbus",
  "cancel-redwing", "ask-camille", "dup-ximena", "credit-emberly", "plan-birchwood",
  "wrong-cobalt-upgrade", "collision-bluefin-2", "embedded-emeka", "late-priyanka", "partial-wen",
  "shared-mossfern-cancel", "void-esther", "dispute-isaac", "cancel-oskar", "ask-orchard",
  "plan-felipe", "refunded-leila", "credit-valentina", "wrong-halvorsen-child", "dup-copperleaf",
  "embedded-thistle", "cn-dovetail", "collision-farhan-1", "late-ironbark", "legal-wildrye",
  "plan-cinder", "shared-harbor-cancel", "partial-gullwing", "cancel-eastgate", "ask-rohan",
  "wrong-brightline-credit", "credit-umber", "void-alder", "refunded-meridian", "embedded-yellowtail",
  "plan-hyejin", "collision-farhan-2", "legal-thandiwe", "dup-hiroshi", "ask-bramble",
  "cancel-mateo", "partial-oakhollow", "wrong-cobalt-refund", "shared-inkwell-credit", "credit-kenji",
  "cn-goran", "late-nadia", "embedded-sandeep", "plan-driftwood", "legal-goldcrest",
  "ask-saoirse",
];

/** The label a ticket carries everywhere (seed external_id, rubric label, pack task id). */
export function ticketLabel(position) {
  return `ACME-${1000 + position}`;
}

/**
 * When each ticket arrived: the desk's last three and a half days, about fifty minutes apart with some
 * jitter, oldest first, the newest well before the clock.
 */
export function arrivalTimes(count) {
  const rng = new Rng("arrivals");
  const first = CLOCK - 82 * HOUR;
  const out = [];
  for (let i = 0; i < count; i++) out.push(first + i * 50 * 60 + rng.int(-12, 12) * 60);
  return out;
}
