// Reads migrations/*.sql for the local server, which hands them to its Worker to apply (src/db/migrate.ts).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { MigrationSet } from "../../db/migrate";

/** The migrations directory as the Worker applies it (src/db/migrate.ts): every .sql file, split into statements. */
export function readMigrations(dir: string): MigrationSet {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".sql"))
    .sort()
    .map((name) => ({ name, statements: splitSql(readFileSync(join(dir, name), "utf8")) }));
}

/**
 * Splits a migration into statements. drizzle-kit separates them with `--> statement-breakpoint`; otherwise
 * split on semicolons outside quotes and comments (migrations here hold no triggers, whose bodies contain `;`).
 */
export function splitSql(text: string): string[] {
  const chunks = text.includes("--> statement-breakpoint") ? text.split(/^\s*-->\s*statement-breakpoint\s*$/m) : [text];
  return chunks.flatMap(splitOnSemicolons).map((s) => s.trim()).filter((s) => stripComments(s).trim() !== "");
}

function splitOnSemicolons(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === "'" || c === '"' || c === "`" || c === "[") {
      const close = c === "[" ? "]" : c;
      i = text.indexOf(close, i + 1);
      if (i < 0) break;
      i++;
    } else if (c === "-" && text[i + 1] === "-") {
      const nl = text.indexOf("\n", i);
      i = nl < 0 ? text.length : nl + 1;
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end < 0 ? text.length : end + 2;
    } else if (c === ";") {
      out.push(text.slice(start, i));
      start = ++i;
    } else i++;
  }
  out.push(text.slice(start));
  return out;
}

function stripComments(s: string): string {
  return s.replace(/--[^\n]*/g, "").replace(/\/\*[\s\S]*?\*\//g, "");
}
