// Money in cents: printing it for reasons and reading it out of reply text.

const SYMBOLS: Record<string, string> = { usd: "$", eur: "€", gbp: "£", cad: "CA$", aud: "A$" };

/** 24300 -> "$243.00" (or "243.00 chf" for currencies without a symbol here). */
export function formatMoney(cents: number, currency = "usd"): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(Math.round(cents));
  const whole = Math.floor(abs / 100).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const figure = `${whole}.${String(abs % 100).padStart(2, "0")}`;
  const symbol = SYMBOLS[currency.toLowerCase()];
  return symbol ? `${sign}${symbol}${figure}` : `${sign}${figure} ${currency.toLowerCase()}`;
}

// A currency sign then a figure ($1,234.56, $24, € 5.5), or a figure then a currency word (24.30 USD, 10 dollars).
const AMOUNT = /(?:[$€£]\s?((?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d{1,2})?))|(?:\b((?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d{1,2})?)\s?(?:usd|eur|gbp|dollars?|euros?|pounds?)\b)/gi;

/** Every amount written in the text, in cents, in order of appearance. */
export function amountsIn(text: string): Array<{ cents: number; index: number; raw: string }> {
  const out: Array<{ cents: number; index: number; raw: string }> = [];
  for (const m of text.matchAll(AMOUNT)) {
    const figure = (m[1] ?? m[2] ?? "").replace(/,/g, "");
    const [whole, frac = ""] = figure.split(".");
    const cents = Number(whole) * 100 + Number(frac.padEnd(2, "0") || "0");
    if (Number.isFinite(cents)) out.push({ cents, index: m.index ?? 0, raw: m[0] });
  }
  return out;
}
