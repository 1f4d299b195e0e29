// Amounts in a tasks file: whole cents (24300) or a two-decimal figure with an optional $ and thousands
// commas ($243.00, $1,234.56). A figure like $243 is refused rather than guessed: is it dollars or cents?

export type AmountResult = { ok: true; cents: number } | { ok: false; reason: string };

/** True when a token is meant as an amount (so a malformed one is reported as an amount, not a target). */
export function looksLikeAmount(token: string): boolean {
  return /^\$/.test(token) || /^[0-9][0-9,.]*$/.test(token);
}

export function parseAmount(token: string): AmountResult {
  if (/^[0-9]+$/.test(token)) {
    const cents = Number(token);
    if (!Number.isSafeInteger(cents)) return { ok: false, reason: `amount ${token} is too large` };
    if (cents <= 0) return { ok: false, reason: `amount ${token} must be more than zero` };
    return { ok: true, cents };
  }
  const m = /^\$?((?:[0-9]{1,3}(?:,[0-9]{3})+)|[0-9]+)\.([0-9]{2})$/.exec(token);
  if (m) {
    const cents = Number(m[1].replace(/,/g, "")) * 100 + Number(m[2]);
    if (!Number.isSafeInteger(cents)) return { ok: false, reason: `amount ${token} is too large` };
    if (cents <= 0) return { ok: false, reason: `amount ${token} must be more than zero` };
    return { ok: true, cents };
  }
  const bare = token.replace(/^\$/, "");
  if (/^[0-9]+$/.test(bare)) return { ok: false, reason: `amount ${token} is ambiguous: write dollars with two decimals ($${bare}.00) or whole cents (${bare}00)` };
  if (/^[0-9,]+\.[0-9]+$/.test(bare) && !/\.[0-9]{2}$/.test(bare)) return { ok: false, reason: `amount ${token} needs exactly two decimals (such as $${bare.replace(/\.[0-9]*$/, "")}.${(bare.split(".")[1] + "00").slice(0, 2)})` };
  if (/,/.test(bare)) return { ok: false, reason: `amount ${token} has misplaced thousands commas (write $1,234.56 or 123456)` };
  return { ok: false, reason: `amount ${token} is not an amount (write whole cents such as 24300, or $243.00)` };
}

const ZERO_DECIMAL = new Set(["bif", "clp", "djf", "gnf", "jpy", "kmf", "krw", "mga", "pyg", "rwf", "ugx", "vnd", "vuv", "xaf", "xof", "xpf"]);

function groupThousands(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** $1,234.56 for dollars; 1,234.56 EUR for other currencies; zero-decimal currencies without decimals. */
export function formatMoney(cents: number, currency: string): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  const cur = currency.toLowerCase();
  const figure = ZERO_DECIMAL.has(cur) ? groupThousands(abs) : `${groupThousands(Math.floor(abs / 100))}.${String(abs % 100).padStart(2, "0")}`;
  return cur === "usd" ? `${sign}$${figure}` : `${sign}${figure} ${cur.toUpperCase()}`;
}
