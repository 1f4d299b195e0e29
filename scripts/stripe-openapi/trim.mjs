#!/usr/bin/env node
// Trims Stripe's published OpenAPI document (github.com/stripe/openapi, openapi/spec3.json) to the component
// schemas of the objects the billing twin serves, for test/node/stripe-openapi.test.ts. Keeps every schema those
// reach through $ref, drops prose and vendor extensions, and cuts references to resources the twin never serves
// (accounts, applications, mandates...) to an open schema, so the copy stays small and the checks stay exact
// for what the twin does return.
//   node scripts/stripe-openapi/trim.mjs <spec3.json> <commit> > test/fixtures/stripe-openapi/<date>.json
import { readFileSync } from "node:fs";

export const SERVED = [
  "balance", "balance_transaction", "charge", "coupon", "credit_note", "credit_note_line_item", "customer",
  "customer_balance_transaction", "deleted_customer", "deleted_discount", "deleted_invoice", "deleted_product",
  "deleted_tax_id", "discount", "dispute", "error", "event", "invoice", "invoiceitem", "line_item", "payment_intent",
  "payment_method", "price", "product", "promotion_code", "refund", "subscription", "subscription_item", "tax_id",
];

const DROP = new Set(["description", "title", "example"]);

function clean(node, keep) {
  if (Array.isArray(node)) return node.map((n) => clean(n, keep));
  if (!node || typeof node !== "object") return node;
  if (typeof node.$ref === "string") {
    const name = node.$ref.replace("#/components/schemas/", "");
    return keep.has(name) ? { $ref: node.$ref } : {};
  }
  const out = {};
  for (const [k, v] of Object.entries(node)) {
    if (DROP.has(k) || k.startsWith("x-")) continue;
    out[k] = clean(v, keep);
  }
  return out;
}

function refsOf(node, acc) {
  if (Array.isArray(node)) for (const n of node) refsOf(n, acc);
  else if (node && typeof node === "object") {
    if (typeof node.$ref === "string") acc.push(node.$ref.replace("#/components/schemas/", ""));
    for (const [k, v] of Object.entries(node)) if (!k.startsWith("x-")) refsOf(v, acc);
  }
  return acc;
}

export function trim(spec, served = SERVED) {
  const all = spec.components.schemas;
  const keep = new Set();
  const queue = [...served];
  while (queue.length) {
    const name = queue.shift();
    if (keep.has(name) || !all[name]) continue;
    // A resource the twin does not serve is a leaf: its id is checked, its body is not.
    if (!served.includes(name) && all[name]["x-resourceId"]) continue;
    keep.add(name);
    queue.push(...refsOf(all[name], []));
  }
  const schemas = {};
  for (const name of [...keep].sort()) schemas[name] = clean(all[name], keep);
  return schemas;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [file, commit] = process.argv.slice(2);
  if (!file || !commit) {
    console.error("usage: trim.mjs <spec3.json> <commit>");
    process.exit(2);
  }
  const spec = JSON.parse(readFileSync(file, "utf8"));
  const out = {
    source: { repository: "https://github.com/stripe/openapi", path: "openapi/spec3.json", commit, api_version: spec.info.version },
    schemas: trim(spec),
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}
