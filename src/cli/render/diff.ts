// A world's diff for people: one line per object, field changes indented under updates.
import type { WorldDiff } from "../../core/world/diff/types";

export function formatDiff(diff: WorldDiff): string {
  if (diff.entries.length === 0) return "no changes: the world is exactly as seeded\n";
  const lines: string[] = [];
  for (const e of diff.entries) {
    const who = e.customer ? ` (customer ${e.customer})` : "";
    lines.push(`${e.op.padEnd(7)} ${e.type} ${e.id}${who}`);
    if (e.op === "updated" && e.fields) {
      for (const [path, change] of Object.entries(e.fields)) lines.push(`          ${path}: ${short(change.before)} -> ${short(change.after)}`);
    }
  }
  const totals = (["created", "updated", "deleted"] as const)
    .map((op) => {
      const byType = Object.entries(diff.counts[op] ?? {}).filter(([, n]) => (n ?? 0) > 0);
      return byType.length ? `${op} ${byType.map(([t, n]) => `${n} ${t}`).join(", ")}` : null;
    })
    .filter(Boolean);
  lines.push("", `changes: ${totals.join("; ") || "none"}`);
  return lines.join("\n") + "\n";
}

function short(v: unknown): string {
  const s = JSON.stringify(v) ?? "undefined";
  return s.length > 80 ? s.slice(0, 77) + "..." : s;
}
