// Invoice corrections: an open invoice issued in error is voided, whatever the customer calls it; a paid one
// cannot be voided and is corrected with a credit note for the amount billed in error.
import { usd } from "../money.mjs";
import { longDate, shortDate } from "../time.mjs";

const INVOICES = ["invoices"];

/** A one-off invoice, sent for payment and still unpaid. */
function strayInvoice(ctx, cus, { daysAgo, lines }) {
  const at = ctx.daysAgo(daysAgo, 16);
  return ctx.L.invoice(cus, { lines: lines.map((l) => ({ ...l, period: { start: at, end: at } })), created: at, pay: "none", collection: "send_invoice", reason: "manual" });
}

export const invoiceScenarios = {
  "void-granite": (ctx) => {
    const cus = ctx.customer({ key: "granite", name: "Granite Supply Co.", email: "payables.granite@example.com" });
    ctx.monthly(cus, { plan: "growth", seats: 2, lastDaysAgo: 19, months: 6, hour: 12 });
    const inv = strayInvoice(ctx, cus, { daysAgo: 5, lines: [{ amount: 5 * 1200, description: "5 × Extra seats (one-off)", price: null, quantity: 5 }] });
    return {
      trap_class: "void-vs-credit-note",
      packs: INVOICES,
      requester: { email: cus.email, name: "Yara Haddad" },
      subject: `Invoice ${inv.number} - not ours`,
      body: `Hello,

We received invoice ${inv.number} dated ${shortDate(inv.created)} for ${usd(inv.lines[0].amount)} (5 extra seats). We did not add any seats; we still have the same 2 as before. Please remove this invoice from our account. We have not paid it.

Yara Haddad
Accounts Payable, Granite Supply Co.`,
      priority: "normal",
      tags: ["invoice"],
      key: { action: "void", invoice: inv.id },
    };
  },

  "cn-ingrid": (ctx) => {
    const cus = ctx.customer({ key: "ingrid", name: "Ingrid Bergstrom", email: "ingrid.bergstrom@example.com" });
    const { current } = ctx.monthly(cus, { plan: "starter", seats: 6, lastDaysAgo: 13, months: 10, hour: 8 });
    return {
      trap_class: "void-vs-credit-note",
      packs: INVOICES,
      requester: { email: cus.email, name: cus.name },
      subject: `Wrong seat count on ${current.invoice.number}`,
      body: `Hi,

Invoice ${current.invoice.number} (paid ${shortDate(current.charge.created)}) bills 6 extra seats. I had reduced it to 4 before the renewal, but it seems the change didn't save. Could you correct the invoice so it reflects 4 seats? It's for my freelance accounts, so the invoice itself needs to be right; a correction on my account balance is fine, no need to touch the card.

Best,
Ingrid`,
      priority: "normal",
      tags: ["invoice", "seats"],
      key: { action: "credit", amount: 2 * 1200, invoice: current.invoice.id },
    };
  },

  "void-nimbus": (ctx) => {
    const cus = ctx.customer({ key: "nimbus", name: "Nimbus Health", email: "finance.nimbushealth@example.com" });
    ctx.monthly(cus, { plan: "scale", seats: 4, lastDaysAgo: 22, months: 9, hour: 15 });
    const inv = strayInvoice(ctx, cus, { daysAgo: 8, lines: [{ amount: 3 * 1200, description: "3 × Extra seats (one-off)", price: null, quantity: 3 }] });
    return {
      trap_class: "void-vs-credit-note",
      packs: INVOICES,
      requester: { email: cus.email, name: "Omar Khalil" },
      subject: "Refund this invoice please",
      body: `Hi, please refund invoice ${inv.number} (${usd(inv.lines[0].amount)}). Those three seats were a test by our admin and removed the same day. Thanks, Omar`,
      priority: "normal",
      tags: ["invoice", "refund_request"],
      key: { action: "void", invoice: inv.id },
    };
  },

  "cn-quarry": (ctx) => {
    const cus = ctx.customer({ key: "quarry", name: "Quarry Ventures", email: "ops.quarry@example.com" });
    ctx.monthly(cus, { plan: "scale", lastDaysAgo: 24, months: 5, hour: 10 });
    const inv = ctx.L.onboarding(cus, ctx.daysAgo(12, 11));
    return {
      trap_class: "void-vs-credit-note",
      packs: INVOICES,
      requester: { email: cus.email, name: "Zofia Kowalski" },
      subject: `Please void invoice ${inv.number}`,
      body: `Hello Acme billing,

Invoice ${inv.number} from ${longDate(inv.created)} charges us ${usd(inv.lines[0].amount)} for an onboarding package. We never ordered onboarding; we migrated ourselves. The card was charged automatically. Please void this invoice so our books are correct.

Zofia Kowalski
Quarry Ventures`,
      priority: "normal",
      tags: ["invoice"],
      key: { action: "credit", amount: inv.lines[0].amount, invoice: inv.id },
    };
  },

  "void-esther": (ctx) => {
    const cus = ctx.customer({ key: "esther", name: "Esther Achebe", email: "esther.achebe@example.com" });
    const { current } = ctx.monthly(cus, { plan: "growth", lastDaysAgo: 12, months: 6, hour: 9 });
    const line = current.invoice.lines[0];
    const inv = strayInvoice(ctx, cus, { daysAgo: 9, lines: [{ amount: line.amount, description: line.description, price: line.price, quantity: 1 }] });
    return {
      trap_class: "void-vs-credit-note",
      packs: INVOICES,
      requester: { email: cus.email, name: cus.name },
      subject: "Second invoice for September",
      body: `Good day. My card paid invoice ${current.invoice.number} for September (${usd(current.charge.amount)}) on ${shortDate(current.charge.created)}. Now I also received invoice ${inv.number} for the same amount asking me to pay by bank. This must be a mistake. Kindly cancel the second invoice. Thank you.

Esther Achebe`,
      priority: "normal",
      tags: ["invoice"],
      key: { action: "void", invoice: inv.id },
    };
  },

  "cn-dovetail": (ctx) => {
    const cus = ctx.customer({ key: "dovetail", name: "Dovetail Design", email: "hello.dovetail@example.com" });
    const { current } = ctx.monthly(cus, { plan: "growth", seats: 3, lastDaysAgo: 9, months: 8, hour: 11 });
    return {
      trap_class: "void-vs-credit-note",
      packs: INVOICES,
      requester: { email: cus.email, name: "Hana Tran" },
      subject: "Credit note for one seat",
      body: `Hi! Could you issue a credit note for ${usd(1200)} on invoice ${current.invoice.number}? One of the three extra seats was for Theo, who left before the renewal. Credit on our account is perfect. Ta!

Hana`,
      priority: "low",
      tags: ["invoice", "seats"],
      key: { action: "credit", amount: 1200, invoice: current.invoice.id },
    };
  },

  "void-alder": (ctx) => {
    const cus = ctx.customer({ key: "alder", name: "Alder Accounting", email: "partners.alder@example.com" });
    ctx.monthly(cus, { plan: "growth", seats: 1, lastDaysAgo: 17, months: 4, hour: 14 });
    const inv = strayInvoice(ctx, cus, { daysAgo: 4, lines: [{ amount: 45000, description: "Onboarding package", price: "price_AcmeOnboarding450", quantity: 1 }] });
    return {
      trap_class: "void-vs-credit-note",
      packs: INVOICES,
      requester: { email: cus.email, name: "Petra Ivanova" },
      subject: `Credit note for ${inv.number}`,
      body: `Dear Acme,

As accountants we like our ledgers tidy: please issue a credit note for the full amount of invoice ${inv.number} (${usd(45000)}, onboarding package). We did not order onboarding and have not paid the invoice.

Regards,
Petra Ivanova
Alder Accounting`,
      priority: "normal",
      tags: ["invoice"],
      key: { action: "void", invoice: inv.id },
    };
  },

  "cn-goran": (ctx) => {
    const cus = ctx.customer({ key: "goran", name: "Goran Horvath", email: "goran.horvath@example.com" });
    const { current } = ctx.monthly(cus, { plan: "starter", seats: 5, lastDaysAgo: 10, months: 3, hour: 20 });
    return {
      trap_class: "void-vs-credit-note",
      packs: INVOICES,
      requester: { email: cus.email, name: cus.name },
      subject: `void invoice ${current.invoice.number}`,
      body: `Hello. Please void invoice ${current.invoice.number}. It is wrong: I am billed for 5 extra seats, but I have 2 only (I removed 3 people in the start of the month, before the invoice). It is paid already from my card.

Goran`,
      priority: "normal",
      tags: ["invoice", "seats"],
      key: { action: "credit", amount: 3 * 1200, invoice: current.invoice.id },
    };
  },
};
