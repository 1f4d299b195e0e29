// Comment bodies in their three renderings: the help desk stores what the author wrote (plain text or HTML) and
// derives the other forms, so agents reading html_body or plain_body see the same words. Nothing is executed.

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** Plain text -> the help desk's comment HTML: paragraphs on blank lines, <br> on single line breaks. */
export function textToHtml(text: string): string {
  const paragraphs = text
    .replace(/\r\n?/g, "\n")
    .split(/\n{2,}/)
    .filter((p) => p.trim() !== "")
    .map((p) => `<p dir="auto">${escapeHtml(p).replace(/\n/g, "<br>")}</p>`);
  return `<div class="zd-comment" dir="auto">${paragraphs.join("")}</div>`;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", apos: "'", nbsp: " " };

/** HTML -> plain text: block ends become line breaks, tags are dropped, the common entities decoded. */
export function htmlToText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<\/(p|div|li|h[1-6]|blockquote|tr)>/gi, "\n\n")
    .replace(/<[^>]*>/g, "")
    .replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (m, name: string) => {
      const lower = name.toLowerCase();
      if (lower in ENTITIES) return ENTITIES[lower];
      if (lower.startsWith("#x")) return String.fromCodePoint(parseInt(lower.slice(2), 16));
      if (lower.startsWith("#")) return String.fromCodePoint(parseInt(lower.slice(1), 10));
      return m;
    })
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** The three renderings of a comment from what its author sent. */
export function commentBodies(input: { body?: string; html_body?: string }): { body: string; html_body: string; plain_body: string } {
  if (input.html_body !== undefined && input.html_body.trim() !== "") {
    const text = htmlToText(input.html_body);
    return { body: text, html_body: input.html_body, plain_body: text };
  }
  const body = input.body ?? "";
  return { body, html_body: textToHtml(body), plain_body: body.trim() };
}
