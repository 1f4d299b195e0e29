// Amounts are integer minor units (cents) everywhere; this renders them for people.

// Stripe's zero-decimal currencies: their amounts are already whole units.
const ZERO_DECIMAL = new Set(["bif", "clp", "djf", "gnf", "jpy", "kmf", "krw", "mga", "pyg", "rwf", "ugx", "vnd", "vuv", "xaf", "xof", "xpf"]);
const SYMBOL: Record<string, string> = { usd: "$", eur: "€", gbp: "£", cad: "CA$", aud: "A$", jpy: "¥" };

export function formatMoney(minor: number, currency: string): string {
  const cur = currency.toLowerCase();
  const sign = minor < 0 ? "-" : "";
  const abs = Math.abs(Math.trunc(minor));
  const decimals = ZERO_DECIMAL.has(cur) ? 0 : 2;
  const whole = decimals === 0 ? abs : Math.floor(abs / 100);
  const frac = decimals === 0 ? "" : `.${String(abs % 100).padStart(2, "0")}`;
  const grouped = String(whole).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const symbol = SYMBOL[cur];
  return symbol ? `${sign}${symbol}${grouped}${frac}` : `${sign}${grouped}${frac} ${cur.toUpperCase()}`;
}

/** Minor units in one major unit: 100 cents to the dollar, 1 for a zero-decimal currency such as the yen. */
export function minorPerMajor(currency: string): number {
  return ZERO_DECIMAL.has(currency.toLowerCase()) ? 1 : 100;
}
