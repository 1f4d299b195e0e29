// HTML escaping for everything a user or an agent wrote (subjects, replies, ids, diff values): a reply holding
// <script> must show as text. Used for text and for double-quoted attribute values alike.
export function esc(s: string | number): string {
  return String(s).replace(/[&<>"']/g, (c) => (c === "&" ? "&amp;" : c === "<" ? "&lt;" : c === ">" ? "&gt;" : c === '"' ? "&quot;" : "&#39;"));
}
