// API versions. Objects are stored in the current shapes; a request pinned to an older version is served the
// shapes that version had (resources implement Resource.present with these helpers).

/** What the official Node client (stripe 23.x) pins; served when neither the request nor the world names one. */
export const CURRENT_API_VERSION = "2026-10-28.endive";

/** The release that moved fields agents trained on older docs still read (invoice.charge, subscription.current_period_end...). */
export const BASIL = "2025-03-31";

const VERSION = /^\d{4}-\d{2}-\d{2}(\.[a-z]+)?$/;

export function isValidApiVersion(v: string): boolean {
  return VERSION.test(v);
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
