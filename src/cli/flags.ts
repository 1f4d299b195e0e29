// One flag parser for every command: it only splits argv into raw values (so unknown flags and missing values
// get the same wording everywhere); each command's zod schema then gives the values their types and limits.
import { z } from "zod";

/** "optional": a value that may be left out (`--judge` alone means `--judge <implied>`). */
export type FlagKind = "value" | "switch" | "list" | "optional";

export interface FlagDef {
  kind: FlagKind;
  /** Shown by `--help`: the value's placeholder (value/list flags) and one line of description. */
  placeholder?: string;
  help: string;
  /** A one-letter alias, e.g. "k" for -k. */
  short?: string;
  /** "optional" flags: the value taken when none follows, and what a following word must look like to be the value. */
  implied?: string;
  accepts?: RegExp;
}

export type FlagDefs = Record<string, FlagDef>;

export interface ParsedArgs<T> {
  flags: T;
  positionals: string[];
  /** The argv after `--` (the agent command), or null when there was no `--`. */
  command: string[] | null;
  help: boolean;
}

/** A user error in the command line: the command prints it with a pointer to --help and exits 2. */
export class FlagError extends Error {
  constructor(readonly command: string, message: string) {
    super(message);
  }
}

type Raw = Record<string, string | true | string[]>;

/**
 * Splits argv by `defs`, then validates with `schema` (keys = flag names without dashes).
 * `--name value`, `--name=value`, repeatable list flags, and `--` ending the options are supported.
 */
export function parseArgs<S extends z.ZodType>(
  command: string,
  argv: readonly string[],
  defs: FlagDefs,
  schema: S,
  opts: { positionals?: number } = {},
): ParsedArgs<z.infer<S>> {
  const raw: Raw = {};
  const positionals: string[] = [];
  let rest: string[] | null = null;
  let help = false;
  const byShort = new Map(Object.entries(defs).flatMap(([name, d]) => (d.short ? [[d.short, name] as const] : [])));

  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") {
      rest = argv.slice(i + 1);
      break;
    }
    if (arg === "--help" || arg === "-h") {
      help = true;
      continue;
    }
    let name: string | undefined;
    let inline: string | undefined;
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      name = eq >= 0 ? arg.slice(2, eq) : arg.slice(2);
      inline = eq >= 0 ? arg.slice(eq + 1) : undefined;
    } else if (/^-[A-Za-z]$/.test(arg)) {
      name = byShort.get(arg.slice(1));
      if (!name) throw new FlagError(command, `unknown option '${arg}'.`);
    } else {
      positionals.push(arg);
      continue;
    }
    const def = Object.hasOwn(defs, name) ? defs[name] : undefined;
    if (!def) {
      const near = closest(name, Object.keys(defs));
      throw new FlagError(command, `unknown option '--${name}'.${near ? ` Did you mean '--${near}'?` : ""}`);
    }
    if (def.kind === "switch") {
      if (inline !== undefined) throw new FlagError(command, `--${name} takes no value (got '${inline}').`);
      raw[name] = true;
      continue;
    }
    let value = inline;
    if (def.kind === "optional" && value === undefined) {
      // The next word is this flag's value only when it looks like one; otherwise the flag stands alone.
      const next = argv[i + 1];
      if (next !== undefined && def.accepts?.test(next)) i++, (value = next);
      else value = def.implied ?? "";
    }
    if (value === undefined) {
      const next = argv[i + 1];
      if (next === undefined || next === "--" || (next.startsWith("--") && next.length > 2)) throw new FlagError(command, `--${name} needs a value${def.placeholder ? ` (${def.placeholder})` : ""}.`);
      value = next;
      i++;
    }
    if (def.kind === "list") {
      const prev = raw[name];
      raw[name] = [...(Array.isArray(prev) ? prev : []), value];
    } else {
      if (typeof raw[name] === "string") throw new FlagError(command, `--${name} was given twice ('${raw[name]}' and '${value}').`);
      raw[name] = value;
    }
  }

  const max = opts.positionals ?? 0;
  if (!help && positionals.length > max) {
    throw new FlagError(command, max === 0 ? `unexpected argument '${positionals[0]}'. An agent command goes after '--'.` : `too many arguments: ${positionals.slice(max).map((p) => `'${p}'`).join(" ")}.`);
  }
  if (help) return { flags: {} as z.infer<S>, positionals, command: rest, help };

  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = String(issue.path[0] ?? "");
    const given = raw[key];
    const shown = typeof given === "string" ? ` (got '${given}')` : "";
    throw new FlagError(command, key ? `--${key} ${issue.message}${shown}.` : issue.message);
  }
  return { flags: parsed.data, positionals, command: rest, help };
}

/** Value schemas with messages that read after the flag name: "--runs must be a whole number (got 'x')". */
export const flag = {
  int: (min: number, max: number) =>
    z
      .string()
      .regex(/^\d+$/, { message: "must be a whole number" })
      .transform(Number)
      .pipe(z.number().int().min(min, { message: `must be at least ${min}` }).max(max, { message: `must be at most ${max}` })),
  seconds: () =>
    z
      .string()
      .regex(/^\d+(\.\d+)?$/, { message: "must be a number of seconds" })
      .transform(Number)
      .pipe(z.number().positive({ message: "must be more than 0 seconds" }).max(86_400, { message: "must be at most 86400 seconds" })),
  text: () => z.string().min(1, { message: "must not be empty" }),
  url: () =>
    z.string().refine((s) => /^https?:\/\/[^\s]+$/.test(s), { message: "must be an http(s) URL" }),
  oneOf: <const T extends readonly [string, ...string[]]>(values: T) => z.enum(values, { message: `must be one of ${values.join(", ")}` }),
  switch: () => z.literal(true).optional(),
  list: () => z.array(z.string().min(1, { message: "must not be empty" })),
};

/** The `--help` text for a command, from the same definitions the parser uses. */
export function helpText(usage: string, summary: string, defs: FlagDefs): string {
  const rows = Object.entries(defs).map(([name, d]) => {
    const left = `${d.short ? `-${d.short}, ` : "    "}--${name}${d.kind === "switch" ? "" : d.kind === "optional" ? ` [${d.placeholder ?? "VALUE"}]` : ` ${d.placeholder ?? "VALUE"}`}${d.kind === "list" ? " (repeatable)" : ""}`;
    return `  ${left.padEnd(34)} ${d.help}`;
  });
  return `usage: ${usage}\n\n${summary}\n\noptions:\n${rows.join("\n")}\n`;
}

function closest(name: string, names: string[]): string | null {
  let best: string | null = null;
  let bestDistance = 3;
  for (const n of names) {
    const d = editDistance(name, n);
    if (d < bestDistance) [best, bestDistance] = [n, d];
  }
  return best;
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length];
}
