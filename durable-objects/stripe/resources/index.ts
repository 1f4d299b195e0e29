// Every billing resource the twin serves. The HTTP layer builds its router, seeding and expansion from this list.
import type { Resource } from "../types";
import { balanceTransactions } from "./balance-transactions";
import { charges } from "./charges";
import { creditNotes } from "./credit-notes";
import { customers } from "./customers";
import { invoiceItems } from "./invoice-items";
import { invoices } from "./invoices";
import { paymentIntents } from "./payment-intents";
import { prices } from "./prices";
import { products } from "./products";
import { refunds } from "./refunds";
import { subscriptions } from "./subscriptions";

export const RESOURCES: Resource[] = [customers, balanceTransactions, products, prices, subscriptions, invoiceItems, invoices, charges, paymentIntents, refunds, creditNotes];
