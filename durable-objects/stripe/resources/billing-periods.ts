// Calendar arithmetic for billing periods and the proration arithmetic built on it. Periods advance by calendar
// months/years in UTC, as subscriptions bill on the same day of the month.

export type Interval = "day" | "week" | "month" | "year";

export function addInterval(ts: number, interval: Interval, count = 1): number {
  const d = new Date(ts * 1000);
  switch (interval) {
    case "day":
      return ts + 86400 * count;
    case "week":
      return ts + 7 * 86400 * count;
    case "month": {
      const day = d.getUTCDate();
      const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + count, 1, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()));
      const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
      target.setUTCDate(Math.min(day, lastDay));
      return Math.floor(target.getTime() / 1000);
    }
    case "year":
      return addInterval(ts, "month", 12 * count);
  }
}

/** The share of `amount` for the unused part [at, end) of the period [start, end), rounded to the minor unit. */
export function prorate(amount: number, start: number, end: number, at: number): number {
  if (end <= start) return 0;
  const remaining = Math.min(Math.max(end - at, 0), end - start);
  return Math.round((amount * remaining) / (end - start));
}

/** "15 Sep 2026", as the API writes dates in proration descriptions. */
export function shortDate(ts: number): string {
  const d = new Date(ts * 1000);
  const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  return `${d.getUTCDate()} ${months[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}
