// Row values into task fields: priorities onto the file's four, tags from strings or tag objects, and dates
// from ISO text or unix timestamps. Anything not understood is reported back so it can stay in metadata.

export type Priority = "low" | "normal" | "high" | "urgent";

const PRIORITY_WORDS: Record<string, Priority> = {
  urgent: "urgent",
  critical: "urgent",
  emergency: "urgent",
  blocker: "urgent",
  highest: "urgent",
  p0: "urgent",
  p1: "urgent",
  high: "high",
  important: "high",
  priority: "high", // Intercom marks a priority conversation "priority"
  p2: "high",
  normal: "normal",
  medium: "normal",
  med: "normal",
  moderate: "normal",
  default: "normal",
  not_priority: "normal",
  p3: "normal",
  low: "low",
  lowest: "low",
  minor: "low",
  p4: "low",
  p5: "low",
};

/** A priority word, or null for an empty cell; `unknown` when the word means nothing here. */
export function normalisePriority(value: unknown): Priority | null | "unknown" {
  if (value === null || value === undefined) return null;
  const word = String(value).trim().toLowerCase().replace(/[\s-]+/g, "_");
  if (word === "" || word === "_" || word === "none" || word === "null") return null;
  return PRIORITY_WORDS[word] ?? "unknown";
}

/** Tags from "a b", "a, b", ["a","b"] or [{name:"a"}] (Intercom, Front). */
export function normaliseTags(value: unknown): string[] {
  const out: string[] = [];
  const add = (t: unknown) => {
    const s = typeof t === "string" ? t.trim() : typeof t === "number" ? String(t) : "";
    if (s && !out.includes(s)) out.push(s);
  };
  if (Array.isArray(value)) {
    for (const v of value) {
      if (v && typeof v === "object" && !Array.isArray(v)) add((v as Record<string, unknown>).name);
      else add(v);
    }
  } else if (typeof value === "string") for (const t of value.split(/[\s,]+/)) add(t);
  return out;
}

const ISO_LIKE = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?\s*(Z|UTC|GMT|[+-]\d{2}:?\d{2})?$/i;

/**
 * A date from a unix timestamp (seconds below 1e11, else milliseconds) or ISO-like text; a time without a zone
 * is UTC. Locale formats such as 04/05/2024 are refused: which is the month is a guess.
 */
export function parseDate(value: unknown): Date | null {
  if (typeof value === "number") return Number.isFinite(value) && value > 0 ? new Date(value < 1e11 ? value * 1000 : value) : null;
  if (typeof value !== "string") return null;
  const s = value.trim();
  if (/^\d+(\.\d+)?$/.test(s)) return parseDate(Number(s));
  const m = ISO_LIKE.exec(s);
  if (!m) return null;
  const [, y, mo, d, h = "00", mi = "00", sec = "00", frac = "", zone] = m;
  let z = (zone ?? "Z").toUpperCase();
  if (z === "UTC" || z === "GMT") z = "Z";
  else if (z !== "Z" && !z.includes(":")) z = `${z.slice(0, 3)}:${z.slice(3)}`;
  const t = Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${sec}${frac ? `.${frac.slice(0, 3)}` : ""}${z}`);
  return Number.isNaN(t) ? null : new Date(t);
}
