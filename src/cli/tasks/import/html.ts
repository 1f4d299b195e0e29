// Help desk bodies often arrive as HTML (Intercom's source.body, Zendesk's html_body). Tasks carry plain text:
// block ends become line breaks, list items dashes, tags go, entities are decoded.

const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  ndash: "–",
  mdash: "—",
  hellip: "…",
  lsquo: "‘",
  rsquo: "’",
  ldquo: "“",
  rdquo: "”",
  euro: "€",
  pound: "£",
  copy: "©",
  reg: "®",
  trade: "™",
};

export function looksLikeHtml(s: string): boolean {
  return /<\/?(p|br|div|span|a|b|i|em|strong|ul|ol|li|h[1-6]|blockquote|pre|code|table|tr|td|img)\b[^>]*>/i.test(s);
}

export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (m, body: string) => {
    if (body[0] === "#") {
      const cp = body[1] === "x" || body[1] === "X" ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isFinite(cp) && cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : m;
    }
    return ENTITIES[body.toLowerCase()] ?? m;
  });
}

export function htmlToText(html: string): string {
  let s = html.replace(/\r\n?/g, "\n");
  s = s.replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, "");
  s = s.replace(/\n/g, " ");
  s = s.replace(/<br\s*\/?>/gi, "\n");
  s = s.replace(/<li\b[^>]*>/gi, "\n- ");
  s = s.replace(/<\/(p|div|h[1-6]|blockquote|pre|tr|table|ul|ol)\s*>/gi, "\n\n");
  s = s.replace(/<(p|div|h[1-6]|blockquote|pre|tr|table|ul|ol)\b[^>]*>/gi, "\n");
  s = s.replace(/<[^>]*>/g, "");
  s = decodeEntities(s);
  const lines = s.split("\n").map((l) => l.replace(/[ \t\u00a0]+/g, " ").trim());
  return lines.join("\n").replace(/\n{3,}/g, "\n\n").trim();
}
