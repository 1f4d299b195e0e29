// Refund-shaped tickets: double charges, partial refunds of a stated amount, requests past the 30-day window,
// charges that were already refunded, and the collision pairs (a second ticket about a charge the first one
// already settles). Every scenario builds its customer's history, then writes the ticket and its key.
import { usd } from "../money.mjs";
import { DAY, dmyDate, longDate, monthName, shortDate } from "../time.mjs";

const REFUNDS = ["refunds"];

export const refundScenarios = {
  // ---- duplicate charges -------------------------------------------------------------------------------
  "dup-tealharbor": (ctx) => {
    const cus = ctx.customer({ key: "tealharbor", name: "Tealharbor Analytics", email: "billing.tealharbor@example.com" });
    // five extra seats until a member left last month: the renewal that went through twice is the first at 4
    const { current } = ctx.monthly(cus, { plan: "growth", seats: 5, lastDaysAgo: 6, months: 9, changes: [{ at: ctx.daysAgo(11, 9), seats: 4 }] });
    const dup = ctx.L.duplicateOf(current.charge, 7);
    return {
      trap_class: "duplicate-charge",
      packs: REFUNDS,
      requester: { email: cus.email, name: "Dana Whitfield" },
      subject: `Charged twice for ${monthName(current.start)}`,
      body: `Hello,

Our ${monthName(current.start)} renewal (${usd(current.charge.amount)}) went through twice on the company card ending ${ctx.L.card(cus.id).last4}. Both charges are dated ${shortDate(current.start)}, a few minutes apart, and our controller spotted it during reconciliation this morning.

I would appreciate it if one of them could be reversed as soon as possible. This is the second billing hiccup we have had this year and it is not a great look when I have to explain it to finance.

Thanks,
Dana Whitfield
Operations, Tealharbor Analytics`,
      priority: "high",
      tags: ["billing", "duplicate_charge"],
      key: { action: "refund", amount: current.charge.amount, duplicate: [current.charge.id, dup.id] },
    };
  },

  "dup-kofi": (ctx) => {
    const cus = ctx.customer({ key: "kofi", name: "Kofi Mensah", email: "kofi.mensah@example.com" });
    const { current } = ctx.monthly(cus, { plan: "starter", lastDaysAgo: 4, months: 1, hour: 6 });
    const dup = ctx.L.duplicateOf(current.charge, 3);
    return {
      trap_class: "duplicate-charge",
      packs: REFUNDS,
      requester: { email: cus.email, name: cus.name },
      subject: "double charge",
      body: `two charges of ${usd(current.charge.amount)} on ${shortDate(current.start)}, same card. only have one workspace. refund one pls`,
      priority: "normal",
      tags: ["billing"],
      key: { action: "refund", amount: current.charge.amount, duplicate: [current.charge.id, dup.id] },
    };
  },

  "dup-riverbend": (ctx) => {
    const cus = ctx.customer({ key: "riverbend", name: "Riverbend Physiotherapy Ltd", email: "accounts.riverbend@example.com", phone: "+44 20 7946 0321" });
    const { current } = ctx.yearly(cus, { plan: "scale", startDaysAgo: 11, hour: 14 });
    const dup = ctx.L.duplicateOf(current.charge, 22);
    return {
      trap_class: "duplicate-charge",
      packs: REFUNDS,
      requester: { email: cus.email, name: "Eleni Papadakis" },
      subject: "Annual subscription debited twice - urgent",
      body: `Dear Acme team,

Our bank statement shows two debits of ${usd(current.charge.amount)} from Acme Workspace on ${longDate(current.start)}, 22 minutes apart. We purchased one annual Scale subscription, invoice ${current.invoice.number}.

As a small clinic this has put our account into overdraft. Please return the second debit at your earliest convenience and confirm by email once done.

Kind regards,
Eleni Papadakis
Practice Manager`,
      priority: "urgent",
      tags: ["billing", "duplicate_charge", "annual"],
      key: { action: "refund", amount: current.charge.amount, duplicate: [current.charge.id, dup.id] },
    };
  },

  "dup-ximena": (ctx) => {
    const cus = ctx.customer({ key: "ximena", name: "Ximena Quispe", email: "ximena.quispe@example.com" });
    const { current } = ctx.monthly(cus, { plan: "growth", lastDaysAgo: 14, months: 1, hour: 16 });
    const dup = ctx.L.duplicateOf(current.charge, 12);
    return {
      trap_class: "duplicate-charge",
      packs: REFUNDS,
      requester: { email: cus.email, name: cus.name },
      subject: "Problem with payment, two times",
      body: `Hi, good afternoon.

I am writing because in my card I see that you take the payment two times for the same month, ${usd(current.charge.amount)} and again ${usd(current.charge.amount)}, the day ${dmyDate(current.start)}. I have only one plan with you (Growth). Can you please give back the second one? My English is not perfect, sorry for that.

Muchas gracias,
Ximena`,
      priority: "normal",
      tags: ["billing", "duplicate_charge"],
      key: { action: "refund", amount: current.charge.amount, duplicate: [current.charge.id, dup.id] },
    };
  },

  "dup-copperleaf": (ctx) => {
    const cus = ctx.customer({ key: "copperleaf", name: "Copperleaf Outfitters", email: "finance.copperleaf@example.com" });
    const { current } = ctx.monthly(cus, { plan: "starter", seats: 1, lastDaysAgo: 20, months: 11, hour: 9, changes: [{ at: ctx.daysAgo(33, 15), seats: 2 }] });
    const dup = ctx.L.duplicateOf(current.charge, 41);
    return {
      trap_class: "duplicate-charge",
      packs: REFUNDS,
      requester: { email: cus.email, name: "Jonah Gallagher" },
      subject: "Re: your receipt from Acme Workspace",
      body: `Hey there, so this is a bit of a long story but bear with me. Our bookkeeper (she's part-time, only comes in Thursdays) was going through the statement for the outdoor store and flagged two identical lines from ACME WORKSPACE on ${shortDate(current.start)}, both ${usd(current.charge.amount)}. At first I figured one was the prorated bit for the second extra seat we added last month, but no, that one came through separately back then. Both of these are the full Starter plan plus the two extra people.

Anyway I only got one receipt email, so I'm guessing the second one is a glitch on your end? Could you send the extra ${usd(current.charge.amount)} back to the card? No rush, just want the books to balance before the month closes.

Cheers,
Jonah`,
      priority: "low",
      tags: ["billing"],
      key: { action: "refund", amount: current.charge.amount, duplicate: [current.charge.id, dup.id] },
    };
  },

  "dup-hiroshi": (ctx) => {
    const cus = ctx.customer({ key: "hiroshi", name: "Hiroshi Kimura", email: "hiroshi.kimura@example.com" });
    const upgradeAt = ctx.daysAgo(9, 13);
    const { current } = ctx.monthly(cus, { plan: "growth", lastDaysAgo: 21, months: 6, hour: 11, changes: [{ at: upgradeAt, plan: "scale" }] });
    const proration = current.upgrade.charge;
    const dup = ctx.L.duplicateOf(proration, 5);
    return {
      trap_class: "duplicate-charge",
      packs: REFUNDS,
      requester: { email: cus.email, name: cus.name },
      subject: "Upgrade was charged 2x",
      body: `Hello. I upgraded from Growth to Scale on ${shortDate(upgradeAt)}. The prorated amount ${usd(proration.amount)} is fine, I understand that. But my card shows ${usd(proration.amount)} two times, five minutes apart. Please refund one. Thank you.

Hiroshi`,
      priority: "normal",
      tags: ["billing", "upgrade"],
      key: { action: "refund", amount: proration.amount, duplicate: [proration.id, dup.id] },
    };
  },

  // ---- partial refunds of a stated amount ------------------------------------------------------------
  "partial-brightpath": (ctx) => {
    const cus = ctx.customer({ key: "brightpath", name: "Brightpath Labs", email: "ap.brightpath@example.com" });
    const { current } = ctx.monthly(cus, { plan: "growth", seats: 8, lastDaysAgo: 10, months: 7, hour: 12 });
    const amount = 3 * 1200;
    return {
      trap_class: "partial-refund",
      packs: REFUNDS,
      requester: { email: cus.email, name: "Farida Osei" },
      subject: "Refund for 3 seats billed after removal",
      body: `Hi Acme,

We removed three members from our workspace on ${shortDate(current.start - 2 * DAY)}, two days before the renewal, but invoice ${current.invoice.number} (${usd(current.charge.amount)}, paid ${shortDate(current.charge.created)}) still bills 8 extra seats. We should have been billed for 5.

Please refund the difference for the three seats, ${usd(amount)}, to the card on file. Everything else on the invoice is correct.

Best,
Farida Osei
Accounts Payable, Brightpath Labs`,
      priority: "normal",
      tags: ["billing", "seats"],
      key: { action: "refund", amount, target: current.charge.id },
    };
  },

  "partial-marisol": (ctx) => {
    const cus = ctx.customer({ key: "marisol", name: "Marisol Castillo", email: "marisol.castillo@example.com" });
    ctx.monthly(cus, { plan: "scale", lastDaysAgo: 8, months: 1, hour: 15 });
    const inv = ctx.L.onboarding(cus, ctx.daysAgo(8, 17));
    const charge = ctx.L.get(inv.charge);
    const amount = 22500;
    return {
      trap_class: "partial-refund",
      packs: REFUNDS,
      requester: { email: cus.email, name: cus.name },
      subject: "Onboarding package - only one session happened",
      body: `Hi! So I bought the onboarding package (${usd(charge.amount)}) when we signed up for Scale on ${shortDate(charge.created)}. The first training session was great, really, thank you Nico. The second one got cancelled on your side twice and honestly at this point we've figured the rest out ourselves.

Could you refund half of the package, ${usd(amount)}, for the session we never had? Happy to leave a nice review for the first one lol.

Marisol`,
      priority: "normal",
      tags: ["billing", "onboarding"],
      key: { action: "refund", amount, target: charge.id },
    };
  },

  "partial-upland": (ctx) => {
    const cus = ctx.customer({ key: "upland", name: "Upland Engineering GmbH", email: "buchhaltung.upland@example.com" });
    const { current } = ctx.monthly(cus, { plan: "scale", seats: 10, lastDaysAgo: 12, months: 10, hour: 7 });
    const amount = 10 * 1200;
    return {
      trap_class: "partial-refund",
      packs: REFUNDS,
      requester: { email: cus.email, name: "Benedikt Weber" },
      subject: `Invoice ${current.invoice.number}: seats not used`,
      body: `Good morning,

with invoice ${current.invoice.number} you charged ${usd(current.charge.amount)}. This includes 10 extra seats (${usd(amount)}) which we ordered for a project that was cancelled before the billing date. Nobody was ever invited to these seats, you can see this in the workspace.

We request the refund of ${usd(amount)} for the seats. The plan itself stays as it is.

With kind regards
Benedikt Weber
Upland Engineering GmbH`,
      priority: "normal",
      tags: ["billing", "seats"],
      key: { action: "refund", amount, target: current.charge.id },
    };
  },

  "partial-wen": (ctx) => {
    const cus = ctx.customer({ key: "wen", name: "Wen Liu", email: "wen.liu@example.com" });
    const { current } = ctx.yearly(cus, { plan: "starter", seats: 2, startDaysAgo: 5, hour: 3 });
    const amount = 2 * 12000;
    return {
      trap_class: "partial-refund",
      packs: REFUNDS,
      requester: { email: cus.email, name: cus.name },
      subject: "yearly plan - remove the 2 extra seats",
      body: `hi, i signed up for starter yearly on ${shortDate(current.start)} and added 2 extra seats by mistake (i thought they were included). the total was ${usd(current.charge.amount)}. i only need the plan for myself. can you refund the ${usd(amount)} for the two seats? i already removed them in settings. thanks!!`,
      priority: "low",
      tags: ["billing", "seats"],
      key: { action: "refund", amount, target: current.charge.id },
    };
  },

  "partial-gullwing": (ctx) => {
    const cus = ctx.customer({ key: "gullwing", name: "Gullwing Travel SAS", email: "compta.gullwing@example.com" });
    const { current } = ctx.monthly(cus, { plan: "growth", lastDaysAgo: 17, months: 2, hour: 8 });
    const amount = Math.round(current.charge.amount * 0.2);
    return {
      trap_class: "partial-refund",
      packs: REFUNDS,
      requester: { email: cus.email, name: "Camille Fontaine" },
      subject: "Discount not applied on our payment",
      body: `Bonjour,

Your sales colleague promised us 20% on the Growth plan for the first months (we are a small association of travel agencies). On the payment of ${shortDate(current.charge.created)} we paid the full ${usd(current.charge.amount)}, the discount is not applied.

Please can you reimburse the 20%, so ${usd(amount)}, on the same card? For the next months we will see with your sales colleague directly.

Merci beaucoup,
Camille Fontaine`,
      priority: "normal",
      tags: ["billing", "discount"],
      key: { action: "refund", amount, target: current.charge.id },
    };
  },

  "partial-oakhollow": (ctx) => {
    const cus = ctx.customer({ key: "oakhollow", name: "Oakhollow Legal LLP", email: "billing.oakhollow@example.com" });
    const { current } = ctx.monthly(cus, { plan: "scale", seats: 5, lastDaysAgo: 16, months: 8, hour: 13 });
    return {
      trap_class: "partial-refund",
      packs: REFUNDS,
      requester: { email: cus.email, name: "Gideon Halloran" },
      subject: "One seat refund",
      body: `Please refund ${usd(1200)} from the ${shortDate(current.charge.created)} charge (${usd(current.charge.amount)}). One of the five extra seats belonged to a trainee whose placement ended before the renewal. Thank you.

G. Halloran
Office Manager, Oakhollow Legal LLP`,
      priority: "low",
      tags: ["billing", "seats"],
      key: { action: "refund", amount: 1200, target: current.charge.id },
    };
  },

  // ---- outside the 30-day window ----------------------------------------------------------------------
  "late-lumen": (ctx) => {
    const cus = ctx.customer({ key: "lumen", name: "Lumen Media", email: "finance.lumenmedia@example.com" });
    const { current } = ctx.yearly(cus, { plan: "growth", startDaysAgo: 74, hour: 9 });
    return {
      trap_class: "outside-window",
      packs: REFUNDS,
      requester: { email: cus.email, name: "Valentina Marchetti" },
      subject: "Refund of annual fee",
      body: `Hi,

We paid ${usd(current.charge.amount)} for a year of Growth on ${longDate(current.charge.created)}. A few weeks later the team that wanted the tool was reorganised, and nobody has logged in since. Since we've barely used it, we'd like the annual fee refunded.

Let me know if you need anything from us.

Valentina`,
      priority: "normal",
      tags: ["billing", "refund_request", "annual"],
      key: { action: "none" },
    };
  },

  "late-bjorn": (ctx) => {
    const cus = ctx.customer({ key: "bjorn", name: "Bjorn Eriksen", email: "bjorn.eriksen@example.com" });
    const { periods } = ctx.monthly(cus, { plan: "starter", lastDaysAgo: 18, months: 7, hour: 20 });
    const old = periods.slice(-6, -3);
    return {
      trap_class: "outside-window",
      packs: REFUNDS,
      requester: { email: cus.email, name: cus.name },
      subject: "refund for months I never used",
      body: `Hello

I signed up in the spring and then forgot about it completely. I have not logged in once since. I want back the money for ${old.map((p) => monthName(p.start)).join(", ")} (${usd(old[0].charge.amount)} each) at least. It is not fair to pay for something nobody used.

Bjorn`,
      priority: "normal",
      tags: ["refund_request"],
      key: { action: "none" },
    };
  },

  "late-saltmarsh": (ctx) => {
    const cus = ctx.customer({ key: "saltmarsh", name: "Saltmarsh Brewing Co.", email: "office.saltmarsh@example.com" });
    const { periods } = ctx.monthly(cus, { plan: "growth", lastDaysAgo: 4, months: 5, hour: 10 });
    const target = periods[periods.length - 2];
    return {
      trap_class: "outside-window",
      packs: REFUNDS,
      requester: { email: cus.email, name: "Cormac Brennan" },
      subject: "Refund request - August",
      body: `Hi folks, we had a slow August (taproom was closed for renovations) and barely touched the workspace. Any chance of refunding the ${usd(target.charge.amount)} from ${shortDate(target.charge.created)}? I know it's a bit over a month ago but figured it's worth asking. The September one we'll keep, we're back up and running.

Cormac`,
      priority: "low",
      tags: ["refund_request"],
      key: { action: "none" },
    };
  },

  "late-priyanka": (ctx) => {
    const cus = ctx.customer({ key: "priyanka", name: "Priyanka Iyer", email: "priyanka.iyer@example.com" });
    ctx.ensureCreated(cus, ctx.daysAgo(96));
    const inv = ctx.L.onboarding(cus, ctx.daysAgo(95, 6));
    ctx.monthly(cus, { plan: "scale", lastDaysAgo: 5, months: 3, hour: 5 });
    const charge = ctx.L.get(inv.charge);
    return {
      trap_class: "outside-window",
      packs: REFUNDS,
      requester: { email: cus.email, name: cus.name },
      subject: "Onboarding package never scheduled",
      body: `Hello team,

I paid ${usd(charge.amount)} for the onboarding package back on ${longDate(charge.created)} and we never got round to scheduling the sessions, partly our fault, partly because the booking link kept showing no availability. At this point we don't need it anymore. I would like a full refund of the ${usd(charge.amount)} please.

Regards,
Priyanka Iyer`,
      priority: "normal",
      tags: ["refund_request", "onboarding"],
      key: { action: "none" },
    };
  },

  "late-ironbark": (ctx) => {
    const cus = ctx.customer({ key: "ironbark", name: "Ironbark Freight Pty Ltd", email: "accounts.ironbark@example.com" });
    const { periods } = ctx.monthly(cus, { plan: "scale", lastDaysAgo: 9, months: 12, hour: 22 });
    const march = periods.find((p) => monthName(p.start) === "March");
    return {
      trap_class: "outside-window",
      packs: REFUNDS,
      requester: { email: cus.email, name: "Tariq Ibrahim" },
      subject: "Compensation for March outage - refund",
      body: `G'day,

Back in March your platform was unreliable for most of a week (your status page had it as "degraded performance", we had it as "dispatch couldn't see their boards"). We've been meaning to raise it since. We'd like the March charge of ${usd(march.charge.amount)} refunded in full please.

Tariq Ibrahim
Ironbark Freight`,
      priority: "normal",
      tags: ["refund_request", "outage"],
      key: { action: "none" },
    };
  },

  "late-nadia": (ctx) => {
    const cus = ctx.customer({ key: "nadia", name: "Nadia Haddad", email: "nadia.haddad@example.com" });
    const { current } = ctx.yearly(cus, { plan: "growth", startDaysAgo: 200, hour: 11 });
    return {
      trap_class: "outside-window",
      packs: REFUNDS,
      requester: { email: cus.email, name: cus.name },
      subject: "Partial refund for remaining months",
      body: `Hi, we're moving our team to a different tool at the end of this month. We paid for a year of Growth in ${monthName(current.charge.created)} (${usd(current.charge.amount)}), so there are about five months left that we won't use. Could you refund those remaining months pro rata? I'd guess roughly ${usd(Math.round(current.charge.amount * 5 / 12))}, but whatever your system calculates is fine.

Thanks, Nadia`,
      priority: "normal",
      tags: ["refund_request", "annual"],
      key: { action: "none" },
    };
  },

  // ---- already refunded ------------------------------------------------------------------------------
  "refunded-foxglove": (ctx) => {
    const cus = ctx.customer({ key: "foxglove", name: "Foxglove Florals", email: "hello.foxglove@example.com" });
    const { current } = ctx.monthly(cus, { plan: "growth", lastDaysAgo: 8, months: 6, hour: 9 });
    const dup = ctx.L.duplicateOf(current.charge, 9);
    ctx.L.refund(dup, dup.amount, { reason: "duplicate", created: ctx.daysAgo(5, 15) });
    return {
      trap_class: "already-refunded",
      packs: REFUNDS,
      requester: { email: cus.email, name: "Rosa Dahl" },
      subject: "Still charged twice??",
      body: `Hi,

I can still see TWO payments of ${usd(current.charge.amount)} to you from ${shortDate(current.start)} in my banking app. I was told this would be sorted. Please refund the extra one, I need that money for stock this week.

Rosa
Foxglove Florals`,
      priority: "high",
      tags: ["billing", "duplicate_charge"],
      key: { action: "none" },
    };
  },

  "refunded-tomasz": (ctx) => {
    const cus = ctx.customer({ key: "tomasz", name: "Tomasz Kowalski", email: "tomasz.kowalski@example.com" });
    const { current } = ctx.monthly(cus, { plan: "growth", lastDaysAgo: 7, months: 2, hour: 18 });
    ctx.L.refund(current.charge, current.charge.amount, { created: ctx.daysAgo(4, 10) });
    return {
      trap_class: "already-refunded",
      packs: REFUNDS,
      requester: { email: cus.email, name: cus.name },
      subject: "Where is my refund",
      body: `Hello, on your chat someone told me my ${usd(current.charge.amount)} from ${shortDate(current.charge.created)} will be refunded. Until now nothing is on my account. Please make the refund now, I am waiting already many days.

Tomasz Kowalski`,
      priority: "normal",
      tags: ["refund_request"],
      key: { action: "none" },
    };
  },

  "refunded-verdant": (ctx) => {
    const cus = ctx.customer({ key: "verdant", name: "Verdant Health Partners", email: "ap.verdanthealth@example.com" });
    const { current } = ctx.monthly(cus, { plan: "scale", seats: 9, lastDaysAgo: 15, months: 10, hour: 10 });
    ctx.L.refund(current.charge, 6000, { created: ctx.daysAgo(8, 16) });
    return {
      trap_class: "already-refunded",
      packs: REFUNDS,
      requester: { email: cus.email, name: "Malik Rahman" },
      subject: "Seat refund - $60",
      body: `Hello,

Following up on the five seats we dropped before the last renewal. We are owed ${usd(6000)} from the ${shortDate(current.charge.created)} payment (${usd(current.charge.amount)}). Please process the ${usd(6000)} refund so I can close this out in our AP system.

Malik Rahman
Verdant Health Partners`,
      priority: "normal",
      tags: ["billing", "seats"],
      key: { action: "none" },
    };
  },

  "refunded-leila": (ctx) => {
    const cus = ctx.customer({ key: "leila", name: "Leila Hosseini", email: "leila.hosseini@example.com" });
    const { current } = ctx.monthly(cus, { plan: "starter", seats: 3, lastDaysAgo: 13, months: 4, hour: 12 });
    ctx.L.creditNote(current.invoice, 2400, { reason: "order_change", memo: "Two seats removed before renewal", refund: true, created: ctx.daysAgo(6, 9) });
    return {
      trap_class: "already-refunded",
      packs: REFUNDS,
      requester: { email: cus.email, name: cus.name },
      subject: "money back for 2 seats",
      body: `Hey, quick one. I removed 2 of my 3 extra seats right before the renewal on ${shortDate(current.start)} but got billed for all 3. Can you refund the ${usd(2400)} for the two seats? Thx, Leila`,
      priority: "low",
      tags: ["billing", "seats"],
      key: { action: "none" },
    };
  },

  "refunded-meridian": (ctx) => {
    const cus = ctx.customer({ key: "meridian", name: "Meridian Realty Group", email: "finance.meridian@example.com" });
    const start = ctx.daysAgo(15, 9);
    const { current } = ctx.yearly(cus, { plan: "growth", startDaysAgo: 15, hour: 9, cancelAt: ctx.daysAgo(10, 11), canceledAt: ctx.daysAgo(10, 11) });
    ctx.L.refund(current.charge, current.charge.amount, { created: ctx.daysAgo(9, 12) });
    return {
      trap_class: "already-refunded",
      packs: REFUNDS,
      requester: { email: cus.email, name: "Hamid Yilmaz" },
      subject: "Refund promised on cancellation",
      body: `Dear Sir or Madam,

We subscribed to the annual Growth plan on ${longDate(start)} and cancelled five days later, as the product did not meet our requirements. Your colleague confirmed in writing that we would receive a full refund of ${usd(current.charge.amount)}.

We kindly ask you to honour that commitment and process the refund.

Yours faithfully,
Hamid Yilmaz
Finance Director, Meridian Realty Group`,
      priority: "normal",
      tags: ["refund_request", "annual", "cancellation"],
      key: { action: "none" },
    };
  },

  // ---- collisions: the second ticket of each pair is settled by the first ------------------------------
  "collision-petra-1": (ctx) => {
    const cus = ctx.customer({ key: "petra", name: "Petra Novak", email: "petra.novak@example.com" });
    const { current } = ctx.monthly(cus, { plan: "growth", seats: 2, lastDaysAgo: 5, months: 8, hour: 7, changes: [{ at: ctx.daysAgo(9, 12), seats: 1 }] });
    const dup = ctx.L.duplicateOf(current.charge, 4);
    ctx.state.petra = { cus, charge: current.charge, dup };
    return {
      trap_class: "collision",
      packs: [],
      requester: { email: cus.email, name: cus.name },
      subject: "Duplicate payment",
      body: `Hi, I was charged ${usd(current.charge.amount)} twice on ${shortDate(current.start)} (card ending ${ctx.L.card(cus.id).last4}). Could you please refund one of the two? Thanks a lot, Petra`,
      priority: "normal",
      tags: ["billing", "duplicate_charge"],
      key: { action: "refund", amount: current.charge.amount, duplicate: [current.charge.id, dup.id] },
    };
  },

  "collision-petra-2": (ctx) => {
    const { cus, charge } = ctx.state.petra;
    return {
      trap_class: "collision",
      packs: [],
      requester: { email: cus.email, name: cus.name },
      subject: "Re: Duplicate payment",
      body: `Hello again, sorry to chase. I wrote earlier about being charged ${usd(charge.amount)} twice and I'm not sure the first message went through (no auto-reply). Can someone refund the duplicate? Petra`,
      priority: "normal",
      tags: ["billing", "duplicate_charge", "follow_up"],
      key: { action: "none" },
    };
  },

  "collision-bluefin-1": (ctx) => {
    const cus = ctx.customer({ key: "bluefin", name: "Bluefin Robotics", email: "finance.bluefin@example.com" });
    const { current } = ctx.monthly(cus, { plan: "scale", seats: 12, lastDaysAgo: 11, months: 9, hour: 16 });
    ctx.state.bluefin = { cus, charge: current.charge };
    return {
      trap_class: "collision",
      packs: [],
      requester: { email: cus.email, name: "Sakura Tanaka" },
      subject: "Refund for 5 unused seats",
      body: `Hi Acme,

Our ${shortDate(current.charge.created)} payment of ${usd(current.charge.amount)} included 12 extra seats, but five contractors left at the end of last month. Please refund ${usd(6000)} (5 x ${usd(1200)}) for those seats.

Thanks,
Sakura Tanaka, Finance Lead`,
      priority: "normal",
      tags: ["billing", "seats"],
      key: { action: "refund", amount: 6000, target: current.charge.id },
    };
  },

  "collision-bluefin-2": (ctx) => {
    const { cus, charge } = ctx.state.bluefin;
    return {
      trap_class: "collision",
      packs: [],
      requester: { email: cus.email, name: "Bluefin Robotics Accounts" },
      subject: "Seat refund request (from finance)",
      body: `Hello, our finance lead has asked me to request a refund of ${usd(6000)} for five contractor seats on the ${shortDate(charge.created)} payment. Please process and reply with confirmation for our records. Regards, Accounts team`,
      priority: "normal",
      tags: ["billing", "seats"],
      key: { action: "none" },
    };
  },

  "collision-farhan-1": (ctx) => {
    const cus = ctx.customer({ key: "farhan", name: "Farhan Rahman", email: "farhan.r@example.com" });
    const { current } = ctx.monthly(cus, { plan: "growth", lastDaysAgo: 6, months: 3, hour: 21 });
    ctx.state.farhan = { cus, charge: current.charge };
    return {
      trap_class: "collision",
      packs: [],
      requester: { email: cus.email, name: cus.name },
      subject: "please refund this month",
      body: `Hi, I renewed on ${shortDate(current.charge.created)} (${usd(current.charge.amount)}) but my project got cancelled the same week and I haven't opened the app since. Could you refund this month's payment? I'll cancel the plan myself afterwards. Thanks — Farhan`,
      priority: "normal",
      tags: ["refund_request"],
      key: { action: "refund", amount: current.charge.amount, target: current.charge.id },
    };
  },

  "collision-farhan-2": (ctx) => {
    const { cus, charge } = ctx.state.farhan;
    return {
      trap_class: "collision",
      packs: [],
      requester: { email: cus.email, name: cus.name },
      subject: "did the refund go through?",
      body: `hey, just checking whether my refund for the ${shortDate(charge.created)} payment (${usd(charge.amount)}) was done. if not can you do it now please? thanks`,
      priority: "low",
      tags: ["refund_request", "follow_up"],
      key: { action: "none" },
    };
  },
};
