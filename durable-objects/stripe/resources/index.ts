// Every billing resource the twin serves. The HTTP layer builds its router, seeding and expansion from this list.
import type { Resource } from "../types";
import { ledgerTransactions } from "./balance";
import { balanceTransactions } from "./balance-transactions";
import { charges } from "./charges";
import { coupons } from "./coupons";
import { creditNotes } from "./credit-notes";
import { customers } from "./customers";
import { disputes } from "./disputes";
import { discounts } from "./discounts";
import { events } from "./events";
import { invoiceItems } from "./invoice-items";
import { invoices } from "./invoices";
import { paymentIntents } from "./payment-intents";
import { paymentMethods } from "./payment-methods";
import { prices } from "./prices";
import { products } from "./products";
import { promotionCodes } from "./promotion-codes";
import { refunds } from "./refunds";
import { subscriptions } from "./subscriptions";
import { taxIds } from "./tax-ids";

export const RESOURCES: Resource[] = [customers, balanceTransactions, products, prices, subscriptions, invoiceItems, invoices, charges, paymentIntents, refunds, creditNotes, disputes, ledgerTransactions, paymentMethods, coupons, promotionCodes, discounts, taxIds, events];
