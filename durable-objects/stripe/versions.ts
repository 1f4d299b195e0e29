// API versions. Objects are stored in the current shapes; a request pinned to an older version is served the
// shapes that version had (resources implement Resource.present with these helpers).

/** What the official Node client (stripe 23.x) pins; served when neither the request nor the world names one. */
export const CURRENT_API_VERSION = "2026-10-28.endive";

/** The release that moved fields agents trained on older docs still read (invoice.charge, subscription.current_period_end...). */
export const BASIL = "2025-03-31";

/** The release that moved a discount's and a promotion code's coupon under `source` / `promotion`. */
export const CLOVER = "2025-09-30";

const VERSION = /^(\d{4})-(\d{2})-(\d{2})(?:\.([a-z]+))?$/;

/** Named major releases, oldest first; dated versions from the first one on carry the name. */
const MAJORS = ["acacia", "basil", "clover", "dahlia", "endive"] as const;
const FIRST_NAMED = "2024-09-30";
const FIRST_VERSION = "2011-01-01";

/**
 * Whether the billing API would accept this Stripe-Version. The real API refuses a version it never released;
 * the twin cannot list every release, so it refuses what cannot be one: a date that is not on the calendar, before
 * the first version or after the newest one it serves, a name on a version from before names existed (or none on
 * one after), or a name that is no release's.
 */
export function isValidApiVersion(v: string): boolean {
  const m = VERSION.exec(v);
  if (!m) return false;
  const [, y, mo, d, major] = m;
  const day = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  if (day.getUTCFullYear() !== Number(y) || day.getUTCMonth() !== Number(mo) - 1 || day.getUTCDate() !== Number(d)) return false;
  const date = `${y}-${mo}-${d}`;
  if (date < FIRST_VERSION || date > CURRENT_API_VERSION.slice(0, 10)) return false;
  if (date < FIRST_NAMED) return major === undefined;
  if (!major || !(MAJORS as readonly string[]).includes(major)) return false;
  // basil is the one boundary the twin's shapes depend on: names on either side of it must agree with the date.
  return (major === "acacia") === (date < BASIL);
}

/** True when `version` predates `date` (YYYY-MM-DD). */
export function versionBefore(version: string, date: string): boolean {
  return version.slice(0, 10) < date;
}

/** True for versions before 2025-03-31.basil, which carry the legacy billing shapes. */
export function isPreBasil(version: string): boolean {
  return versionBefore(version, BASIL);
}

/** The request's Stripe-Version, else the world's default from its seed, else the current version. */
export function resolveApiVersion(header: string | null, worldDefault: string | null): string {
  const h = header?.trim();
  if (h) return h;
  if (worldDefault) return worldDefault;
  return CURRENT_API_VERSION;
}
