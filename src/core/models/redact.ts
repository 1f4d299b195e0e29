// Keys never leave the client: every string it returns (error messages, raw answers) passes through here, so a
// server that echoes the key back cannot put it in a result, a report or a log. (Providers that echo a key
// star out its middle; the few characters they show are not the key.)
const MAX_RAW_CHARS = 8_000;

export function redact(text: string, secrets: readonly (string | null | undefined)[]): string {
  let out = text;
  for (const s of secrets) if (s && s.length >= 4) out = out.split(s).join("[redacted]");
  return out;
}

/** The raw text kept with an error: scrubbed, and cut to a size a results file can hold by the thousand. */
export function rawExcerpt(text: string, secrets: readonly (string | null | undefined)[]): string {
  const clean = redact(text, secrets);
  return clean.length > MAX_RAW_CHARS ? `${clean.slice(0, MAX_RAW_CHARS)}… (${clean.length} characters)` : clean;
}
