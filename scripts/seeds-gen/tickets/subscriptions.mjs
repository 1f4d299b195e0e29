// Subscription tickets: when a cancellation takes effect (now only when asked for in so many words, otherwise
// at the end of the period), and when a plan change may happen (upgrades now; monthly downgrades now; yearly
// downgrades only in the last 30 days of the term).
import { priceId } from "../catalog.mjs";
import { usd } from "../money.mjs";
import { longDate, shortDate } from "../time.mjs";

const CANCELS = ["cancellations"];
const PLANS = ["plan-changes"];

const planChange = (plan, result) => ({ action: "plan_change", plan, sub: result.sub.id, price: priceId(plan, result.sub.items[0].price.includes("Yearly") ? "year" : "month") });

export const subscriptionScenarios = {
  // ---- cancel now vs at period end ----------------------------------------------------------------------
  "cancel-juniper": (ctx) => {
    const cus = ctx.customer({ key: "juniper", name: "Juniper Consulting", email: "office.juniper@example.com" });
    const { sub } = ctx.monthly(cus, { plan: "growth", seats: 2, lastDaysAgo: 11, months: 10, hour: 9 });
    return {
      trap_class: "cancel-timing",
      packs: CANCELS,
      requester: { email: cus.email, name: "Thomas Achebe" },
      subject: "Cancel our subscription",
      body: `Hi,

We've decided to consolidate on another tool, so please cancel our Acme subscription. Thanks for everything over the past year.

Thomas
Juniper Consulting`,
      priority: "normal",
      tags: ["cancellation"],
      key: { action: "cancel_at_period_end", sub: sub.id },
    };
  },

  "cancel-amara": (ctx) => {
    const cus = ctx.customer({ key: "amara", name: "Amara Okafor", email: "amara.okafor@example.com" });
    const { sub } = ctx.monthly(cus, { plan: "starter", lastDaysAgo: 9, months: 6, hour: 22 });
    return {
      trap_class: "cancel-timing",
      packs: CANCELS,
      requester: { email: cus.email, name: cus.name },
      subject: "Cancel immediately",
      body: `Please cancel my subscription immediately, effective today. I don't want the workspace to stay open until the end of the month; I'm closing down my freelance business and want everything shut now. I understand there's no refund for the rest of the month. Thank you.

Amara Okafor`,
      priority: "normal",
      tags: ["cancellation"],
      key: { action: "cancel", sub: sub.id },
    };
  },

  "cancel-zephyr": (ctx) => {
    const cus = ctx.customer({ key: "zephyr", name: "Zephyr Fitness", email: "team.zephyrfitness@example.com" });
    const { sub, current } = ctx.monthly(cus, { plan: "growth", seats: 1, lastDaysAgo: 15, months: 7, hour: 7, cancelAtPeriodEnd: true, canceledAt: ctx.daysAgo(6, 14) });
    return {
      trap_class: "cancel-timing",
      packs: CANCELS,
      requester: { email: cus.email, name: "Paloma Reyes" },
      subject: "Make sure we're cancelled",
      body: `Hi there. I clicked cancel in the billing settings last week but I'm paranoid after another app kept charging us for months. Can you double-check we are cancelled and won't be charged again on ${shortDate(current.end)}? If it's not cancelled, please cancel it.

Paloma, Zephyr Fitness`,
      priority: "normal",
      tags: ["cancellation"],
      key: { action: "none" },
    };
  },

  "cancel-dalia": (ctx) => {
    const cus = ctx.customer({ key: "dalia", name: "Dalia Khalil", email: "dalia.khalil@example.com" });
    const start = ctx.daysAgo(6, 12);
    ctx.ensureCreated(cus, start);
    const { sub } = ctx.L.subscribe(cus, { plan: "growth", interval: "month", start, trialDays: 14 });
    return {
      trap_class: "cancel-timing",
      packs: CANCELS,
      requester: { email: cus.email, name: cus.name },
      subject: "cancel trial",
      body: `hi, i'm on the free trial of growth and i've decided it's not for me. please cancel so i'm not charged when the trial ends on ${shortDate(sub.trial_end)}. thanks`,
      priority: "low",
      tags: ["cancellation", "trial"],
      key: { action: "cancel_at_period_end", sub: sub.id },
    };
  },

  "cancel-redwing": (ctx) => {
    const cus = ctx.customer({ key: "redwing", name: "Redwing Media Ltd", email: "admin.redwing@example.com" });
    const { sub } = ctx.monthly(cus, { plan: "scale", seats: 4, lastDaysAgo: 4, months: 11, hour: 11 });
    return {
      trap_class: "cancel-timing",
      packs: CANCELS,
      requester: { email: cus.email, name: "Viktor Horvath" },
      subject: "Terminate subscription today - company dissolved",
      body: `To whom it may concern,

Redwing Media Ltd enters voluntary liquidation this week. The liquidator has instructed us to end all supplier contracts with immediate effect. Please terminate our Acme subscription today, not at the end of the billing period, and confirm in writing.

Viktor Horvath
Director`,
      priority: "high",
      tags: ["cancellation"],
      key: { action: "cancel", sub: sub.id },
    };
  },

  "cancel-oskar": (ctx) => {
    const cus = ctx.customer({ key: "oskar", name: "Oskar Lindqvist", email: "oskar.lindqvist@example.com" });
    const { sub } = ctx.monthly(cus, { plan: "starter", seats: 1, lastDaysAgo: 20, months: 3, hour: 6 });
    return {
      trap_class: "cancel-timing",
      packs: CANCELS,
      requester: { email: cus.email, name: cus.name },
      subject: "Stop subscription",
      body: `Hej. I want to stop the subscription. It can run until the month is finish, I have paid for it so I use it until then. After that no more payment please.

Best regards
Oskar`,
      priority: "normal",
      tags: ["cancellation"],
      key: { action: "cancel_at_period_end", sub: sub.id },
    };
  },

  "cancel-eastgate": (ctx) => {
    const cus = ctx.customer({ key: "eastgate", name: "Eastgate Realty", email: "finance.eastgate@example.com" });
    const { sub, current } = ctx.yearly(cus, { plan: "growth", seats: 3, startDaysAgo: 243, hour: 15 });
    return {
      trap_class: "cancel-timing",
      packs: CANCELS,
      requester: { email: cus.email, name: "Beatriz Santos" },
      subject: "Do not renew",
      body: `Hello,

We will not be renewing our annual plan when it comes up on ${longDate(current.end)}. Please cancel it so it doesn't auto-renew. We'd like to keep using it until then.

Thank you,
Beatriz Santos
Eastgate Realty`,
      priority: "low",
      tags: ["cancellation", "annual"],
      key: { action: "cancel_at_period_end", sub: sub.id },
    };
  },

  "cancel-mateo": (ctx) => {
    const cus = ctx.customer({ key: "mateo", name: "Mateo Alvarez", email: "mateo.alvarez@example.com" });
    const { sub, current } = ctx.monthly(cus, { plan: "growth", lastDaysAgo: 8, months: 5, hour: 2, failLast: 1 });
    return {
      trap_class: "cancel-timing",
      packs: CANCELS,
      requester: { email: cus.email, name: cus.name },
      subject: "card declined - just cancel now",
      body: `I keep getting emails that my card was declined for ${usd(current.invoice.lines.reduce((s, l) => s + l.amount, 0))}. I don't use the workspace anymore. Cancel the whole thing right now please, today, I don't want it running until the end of anything.`,
      priority: "normal",
      tags: ["cancellation", "payment_failed"],
      key: { action: "cancel", sub: sub.id },
    };
  },

  // ---- plan changes and their timing -------------------------------------------------------------------
  "plan-willowbrook": (ctx) => {
    const cus = ctx.customer({ key: "willowbrook", name: "Willowbrook Tutoring", email: "hello.willowbrook@example.com" });
    const r = ctx.monthly(cus, { plan: "scale", lastDaysAgo: 14, months: 8, hour: 10 });
    return {
      trap_class: "downgrade-timing",
      packs: PLANS,
      requester: { email: cus.email, name: "Grace Nakamura" },
      subject: "Downgrade to Growth",
      body: `Hi! We signed up for Scale thinking we'd need SSO, but our school network doesn't support it anyway. Please move us down to Growth. We're a team of 8 so Growth's seat count is plenty.

Grace`,
      priority: "normal",
      tags: ["plan_change", "downgrade"],
      key: planChange("growth", r),
    };
  },

  "plan-chiara": (ctx) => {
    const cus = ctx.customer({ key: "chiara", name: "Chiara Moretti", email: "chiara.moretti@example.com" });
    const r = ctx.yearly(cus, { plan: "growth", startDaysAgo: 92, hour: 10 });
    return {
      trap_class: "downgrade-timing",
      packs: PLANS,
      requester: { email: cus.email, name: cus.name },
      subject: "Switch to Starter",
      body: `Hello,

I'm on the yearly Growth plan, but honestly I only use the basic boards. Can you switch me to Starter now? It would save me quite a lot. If there's some money to give back for the difference, even better, but mostly I just want the cheaper plan.

Grazie,
Chiara`,
      priority: "normal",
      tags: ["plan_change", "downgrade", "annual"],
      key: { action: "none" },
    };
  },

  "plan-amberline": (ctx) => {
    const cus = ctx.customer({ key: "amberline", name: "Amberline Software", email: "it.amberline@example.com" });
    const r = ctx.monthly(cus, { plan: "growth", seats: 6, lastDaysAgo: 16, months: 9, hour: 13 });
    return {
      trap_class: "downgrade-timing",
      packs: PLANS,
      requester: { email: cus.email, name: "Jun Park" },
      subject: "Upgrade to Scale today",
      body: `Hi, we need the audit log for a customer security review that starts tomorrow. Please upgrade our workspace to Scale right away. Happy to pay the prorated difference.

Jun Park, IT`,
      priority: "high",
      tags: ["plan_change", "upgrade"],
      key: planChange("scale", r),
    };
  },

  "plan-birchwood": (ctx) => {
    const cus = ctx.customer({ key: "birchwood", name: "Birchwood Architects", email: "studio.birchwood@example.com" });
    const r = ctx.yearly(cus, { plan: "scale", startDaysAgo: 347, hour: 9 });
    return {
      trap_class: "downgrade-timing",
      packs: PLANS,
      requester: { email: cus.email, name: "Ines Ferreira" },
      subject: "Move to Growth for next year",
      body: `Dear Acme,

Our annual Scale plan renews on ${longDate(r.current.end)}. For the coming year we would like to be on Growth instead, since we no longer need SSO. Please make the change.

Kind regards,
Ines Ferreira
Birchwood Architects`,
      priority: "normal",
      tags: ["plan_change", "downgrade", "annual"],
      key: planChange("growth", r),
    };
  },

  "plan-felipe": (ctx) => {
    const cus = ctx.customer({ key: "felipe", name: "Felipe Duarte", email: "felipe.duarte@example.com" });
    const r = ctx.monthly(cus, { plan: "growth", lastDaysAgo: 5, months: 4, hour: 23 });
    return {
      trap_class: "downgrade-timing",
      packs: PLANS,
      requester: { email: cus.email, name: cus.name },
      subject: "downgrade",
      body: `Olá, please put me on the Starter plan. I stopped using the automations, Growth is too much for me now. Obrigado.`,
      priority: "low",
      tags: ["plan_change", "downgrade"],
      key: planChange("starter", r),
    };
  },

  "plan-cinder": (ctx) => {
    const cus = ctx.customer({ key: "cinder", name: "Cinder Coffee Co.", email: "owner.cindercoffee@example.com" });
    const r = ctx.monthly(cus, { plan: "starter", lastDaysAgo: 21, months: 7, hour: 7 });
    return {
      trap_class: "downgrade-timing",
      packs: PLANS,
      requester: { email: cus.email, name: "Marco Rossi" },
      subject: "Going up to Growth",
      body: `Morning! We just opened a second café and the team is growing past what Starter allows. Can you bump us up to Growth? Whatever the prorated charge is, that's fine.

Marco
Cinder Coffee Co.`,
      priority: "normal",
      tags: ["plan_change", "upgrade"],
      key: planChange("growth", r),
    };
  },

  "plan-hyejin": (ctx) => {
    const cus = ctx.customer({ key: "hyejin", name: "Hye-jin Park", email: "hyejin.park@example.com" });
    const r = ctx.yearly(cus, { plan: "scale", startDaysAgo: 165, hour: 1 });
    return {
      trap_class: "downgrade-timing",
      packs: PLANS,
      requester: { email: cus.email, name: cus.name },
      subject: "Downgrade Scale -> Starter",
      body: `Hello, my team shrank from 20 people to just me. I'm on Scale yearly (paid ${usd(r.current.charge.amount)} on ${longDate(r.current.charge.created)}). Please change my plan to Starter starting today. Thank you for your help.

Hye-jin`,
      priority: "normal",
      tags: ["plan_change", "downgrade", "annual"],
      key: { action: "none" },
    };
  },

  "plan-driftwood": (ctx) => {
    const cus = ctx.customer({ key: "driftwood", name: "Driftwood Collective", email: "hello.driftwood@example.com" });
    const r = ctx.monthly(cus, { plan: "growth", lastDaysAgo: 6, months: 5, hour: 14 });
    return {
      trap_class: "downgrade-timing",
      packs: PLANS,
      requester: { email: cus.email, name: "Nia Brennan" },
      subject: "Downgrade + refund the difference",
      body: `Hey Acme! We're a tiny artists' collective and Growth is more than we need. Could you switch us to Starter and refund the difference for the rest of this month (we paid ${usd(r.current.charge.amount)} on ${shortDate(r.current.charge.created)})? Thanks so much!!

Nia`,
      priority: "normal",
      tags: ["plan_change", "downgrade"],
      key: planChange("starter", r),
    };
  },
};
