// Amounts as the billing API writes them inside error messages, e.g. "$20.00".
const SYMBOLS: Record<string, string> = { usd: "$", eur: "€", gbp: "£", jpy: "¥", cad: "$", aud: "$", nzd: "$", sgd: "$", hkd: "$" };
/** Currencies without minor units. */
const ZERO_DECIMAL = new Set(["bif", "clp", "djf", "gnf", "jpy", "kmf", "krw", "mga", "pyg", "rwf", "ugx", "vnd", "vuv", "xaf", "xof", "xpf"]);

export function formatAmount(amount: number, currency: string): string {
  const c = currency.toLowerCase();
  const value = ZERO_DECIMAL.has(c) ? String(amount) : (amount / 100).toFixed(2);
  const symbol = SYMBOLS[c];
  return symbol ? `${symbol}${value}` : `${value} ${c.toUpperCase()}`;
}
