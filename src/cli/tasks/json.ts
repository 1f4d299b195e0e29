// JSON.parse's messages differ between Node versions; problems quote our own, stable wording with the place.

/** Parses JSON, or says where it stops being JSON ("line 3, column 7"). */
export function parseJsonText(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    const m = /position (\d+)/.exec((e as Error).message);
    if (!m) return { ok: false, message: text.trim() === "" ? "it is empty" : "it ends too early" };
    const pos = Number(m[1]);
    const before = text.slice(0, pos);
    const line = before.split("\n").length;
    const column = pos - before.lastIndexOf("\n");
    return { ok: false, message: `it stops being JSON at line ${line}, column ${column}` };
  }
}
