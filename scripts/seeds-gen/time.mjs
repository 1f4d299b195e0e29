// The library's calendar. Everything is placed relative to the world clock, in unix seconds (UTC).

export const CLOCK_ISO = "2026-09-15T15:00:00Z";
export const CLOCK = Date.parse(CLOCK_ISO) / 1000;
export const DAY = 86400;
export const HOUR = 3600;

/** A moment `days` days before the clock, at the given UTC hour and minute. */
export function daysAgo(days, hour = 9, minute = 0) {
  const d = new Date((CLOCK - days * DAY) * 1000);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), hour, minute) / 1000;
}

/** Calendar months added the way subscription billing does it: the anchor day, clamped to the month's end. */
export function addMonths(ts, months, anchorDay) {
  const d = new Date(ts * 1000);
  const day = anchorDay ?? d.getUTCDate();
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() + months;
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return Date.UTC(y, m, Math.min(day, last), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()) / 1000;
}

export function addInterval(ts, interval, count, anchorDay) {
  return interval === "year" ? addMonths(ts, 12 * count, anchorDay) : addMonths(ts, count, anchorDay);
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const LONG_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** "Sep 3" */
export function shortDate(ts) {
  const d = new Date(ts * 1000);
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}`;
}
/** "September 3, 2026" */
export function longDate(ts) {
  const d = new Date(ts * 1000);
  return `${LONG_MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}`;
}
/** "03/09/2026" (day first, as many writers outside the US put it) */
export function dmyDate(ts) {
  const d = new Date(ts * 1000);
  const p = (n) => String(n).padStart(2, "0");
  return `${p(d.getUTCDate())}/${p(d.getUTCMonth() + 1)}/${d.getUTCFullYear()}`;
}
export function monthName(ts) {
  return LONG_MONTHS[new Date(ts * 1000).getUTCMonth()];
}
export function isoDate(ts) {
  return new Date(ts * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
}
