// `worlds tasks import FILE --into worlds/tasks.yaml`: a help desk export, an eval tool's cases or a spreadsheet
// appended to a tasks file as tasks, requesters checked against the account. Nothing is written on an error.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { z } from "zod";
import { parseSeed, seedHash } from "../../../core/world/seed/parse";
import { checkIdentityMap, resolveEmail, SeedIndex, type IdentityState } from "../../../core/kinds/account/tasks/index";
import { firstInvalidUtf8 } from "../../../core/kinds/account/tasks/source";
import { flag, helpText, parseArgs, type FlagDefs } from "../../flags";
import { loadIdentityMapRef, loadSeedRef, writeAll } from "../files";
import type { CliIo } from "../io";
import { describeMapping, mapColumns, parseMapFlags } from "./mapping";
import { planImport, type ImportPlan } from "./plan";
import { ExportError, readExport } from "./rows";
import { parseDate } from "./values";
import { appendTasks, existingTaskIds, newTasksFileText, parseTasksDocument } from "./write";

/** Exports of a whole help desk can be large; past this the import should be filtered at the source. */
export const MAX_EXPORT_BYTES = 256 * 1024 * 1024;

const DEFS: FlagDefs = {
  into: { kind: "value", placeholder: "F", help: "the tasks file to append to (default worlds/tasks.yaml; created when absent)" },
  seed: { kind: "value", placeholder: "S", help: "the seed of a new tasks file: a .json file or a seed name" },
  map: { kind: "list", placeholder: "field=column,...", help: "map columns to fields by hand (overrides the automatic mapping)" },
  tag: { kind: "value", placeholder: "T", help: "only rows carrying this tag" },
  since: { kind: "value", placeholder: "D", help: "only rows created on or after this date (YYYY-MM-DD or ISO)" },
  limit: { kind: "value", placeholder: "N", help: "at most N tasks (after the other filters, oldest first)" },
  "identity-map": { kind: "value", placeholder: "F", help: "the identity map (default <seed>.identities.json beside the tasks file)" },
  requester: { kind: "value", placeholder: "EMAIL", help: "pin every row on this customer" },
  "keep-unknown": { kind: "switch", help: "keep rows whose requester the account does not know (tasks validate names them)" },
};
const SCHEMA = z.strictObject({
  into: flag.text().optional(),
  seed: flag.text().optional(),
  map: flag.list().optional(),
  tag: flag.text().optional(),
  since: flag.text().refine((s) => parseDate(s) !== null, { message: "must be a date such as 2026-09-01 or 2026-09-01T12:00:00Z" }).optional(),
  limit: flag.int(1, 1_000_000).optional(),
  "identity-map": flag.text().optional(),
  requester: z.email({ message: "must be an email address" }).optional(),
  "keep-unknown": flag.switch(),
});
export const IMPORT_USAGE =
  "worlds tasks import FILE [--into worlds/tasks.yaml] [--seed S] [--map field=column,...] [--tag T] [--since D] [--limit N] [--identity-map F] [--requester EMAIL] [--keep-unknown]";

class ImportRefused extends Error {}

function readExportText(path: string, shown: string): string {
  if (!existsSync(path)) throw new ImportRefused(`${shown}: no such file`);
  const size = statSync(path).size;
  if (size > MAX_EXPORT_BYTES) throw new ImportRefused(`${shown} is ${(size / 1024 / 1024).toFixed(1)} MiB; an export may be at most ${MAX_EXPORT_BYTES / 1024 / 1024} MiB (filter it at the source)`);
  const bytes = readFileSync(path);
  if (bytes.indexOf(0) >= 0) throw new ImportRefused(`${shown} is binary, not a CSV or JSON export (it holds a NUL byte)`);
  const bad = firstInvalidUtf8(bytes);
  if (bad >= 0) throw new ImportRefused(`${shown} is not UTF-8 text (byte 0x${bytes[bad].toString(16).padStart(2, "0")} at offset ${bad}); re-export it as UTF-8`);
  return bytes.toString("utf8");
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** `lookedUp`: the account was imported with this export's requesters looked up, so a stranger is no sample gap. */
function report(io: CliIo, plan: ImportPlan, lookedUp = false): void {
  const s = plan.skipped;
  if (plan.bodyFromSubject) io.out("note: the export has no body column, so each task's body repeats its subject\n");
  if (s.duplicate) io.out(`skipped ${plural(s.duplicate, "row")} whose id the file already holds\n`);
  if (s.empty) io.out(`skipped ${plural(s.empty, "row")} with neither subject nor body\n`);
  if (s.noRequester) io.out(`skipped ${plural(s.noRequester, "row")} with no requester email (--requester <email> pins every row on one customer)\n`);
  if (s.tag) io.out(`skipped ${plural(s.tag, "row")} without the tag\n`);
  if (s.since) io.out(`skipped ${plural(s.since, "row")} created before --since\n`);
  if (s.noDate) io.out(`skipped ${plural(s.noDate, "row")} with no readable date (--since needs one)\n`);
  if (s.limit) io.out(`left out ${plural(s.limit, "row")} past --limit\n`);
  if (s.unknownRequester) {
    const shown = s.unknownEmails.slice(0, 5).join(", ") + (s.unknownEmails.length > 5 ? `, and ${s.unknownEmails.length - 5} more` : "");
    io.out(
      `skipped ${plural(s.unknownRequester, "row")} from ${plural(s.unknownEmails.length, "requester")} the account does not know (${shown}): ${lookedUp ? "each was looked up in the account and is not a customer there, so" : "the seed import copies a sample of customers, so raise --sample on seed import to take more,"} pin every row on one customer with --requester <email>, or keep them with --keep-unknown for tasks validate to name\n`,
    );
  }
  if (plan.mapped) io.out(`replaced ${plural(plan.mapped, "real requester")} with the seed's pseudonyms (identity map)\n`);
  if (plan.outcomesNotInGrammar) io.out(`kept ${plural(plan.outcomesNotInGrammar, "outcome")} that ${plan.outcomesNotInGrammar === 1 ? "is" : "are"} not an expected line in metadata (write expected: by hand; docs/tasks-file.md has the grammar)\n`);
}

export async function importCommand(io: CliIo, argv: string[], opts: { requestersLookedUp?: boolean } = {}): Promise<number> {
  const args = parseArgs("tasks import", argv, DEFS, SCHEMA, { positionals: 1 });
  if (args.help) {
    io.out(helpText(IMPORT_USAGE, "Appends the rows of a help desk export (CSV, JSON, JSON lines) to a tasks file, columns mapped by name.", DEFS));
    return 0;
  }
  const f = args.flags;
  const file = args.positionals[0];
  const fail = (message: string) => {
    io.err(`worlds tasks import: ${message}\nnothing written\n`);
    return 2;
  };
  if (!file) return fail("name the export to import: worlds tasks import tickets.csv --into worlds/tasks.yaml");
  try {
    const rows = readExport(file, readExportText(resolve(io.cwd, file), file));
    if (rows.records.length === 0) return fail(`${file} holds no rows`);

    // The tasks file: appended to, or started with the seed --seed names.
    const intoShown = f.into ?? join("worlds", "tasks.yaml");
    const intoPath = resolve(io.cwd, intoShown);
    const intoDir = dirname(intoPath);
    let docText: string;
    let seedRef: string;
    const exists = existsSync(intoPath);
    if (exists) {
      docText = readFileSync(intoPath, "utf8");
      const parsed = parseTasksDocument(docText);
      if (!parsed.ok) return fail(`${intoShown}: ${parsed.message}`);
      const fileSeed = parsed.doc.get("seed");
      if (typeof fileSeed !== "string" || fileSeed.trim() === "") return fail(`${intoShown} names no seed: (add seed: <name or .json file>, or import into a new file with --seed)`);
      seedRef = fileSeed.trim();
      if (f.seed && f.seed !== seedRef && resolve(io.cwd, f.seed) !== resolve(intoDir, seedRef)) return fail(`--seed ${f.seed} differs from the seed ${intoShown} names (${seedRef}); drop --seed, or import into another file`);
    } else {
      if (!f.seed) return fail(newFileNeedsSeed(io, intoShown, intoDir));
      const asFile = f.seed.endsWith(".json") && existsSync(resolve(io.cwd, f.seed));
      seedRef = asFile ? relative(intoDir, resolve(io.cwd, f.seed)).split("\\").join("/") : f.seed;
      docText = newTasksFileText(seedRef, basename(file));
    }

    const loaded = loadSeedRef(io, seedRef, intoDir);
    if (!loaded.ok) return fail(`seed: ${loaded.message}`);
    const seedParsed = parseSeed(loaded.document);
    if (!seedParsed.ok) return fail(`seed ${seedRef} is not a valid seed: ${seedParsed.issues.slice(0, 3).map((i) => `${i.path}: ${i.message}`).join("; ")}`);
    const seed = seedParsed.seed;
    const ix = new SeedIndex(seed);

    // The identity map: named, or the one seed import writes beside the tasks file. Refused before any write.
    const mapShown = f["identity-map"] ?? relative(io.cwd, join(intoDir, `${seed.name}.identities.json`));
    const mapPath = f["identity-map"] ? resolve(io.cwd, f["identity-map"]) : join(intoDir, `${seed.name}.identities.json`);
    let identities: IdentityState = { kind: "none" };
    const mapInput = loadIdentityMapRef(mapPath, intoDir);
    if ("missing" in mapInput) {
      if (f["identity-map"]) return fail(`--identity-map ${mapShown}: no such file`);
    } else {
      const shownInput = "path" in mapInput ? { ...mapInput, path: mapShown } : mapInput;
      if ("error" in shownInput) return fail(`identity map ${shownInput.error.split(mapPath).join(mapShown)}`);
      const checked = checkIdentityMap(shownInput, seed, await seedHash(seed));
      if (checked.error) return fail(`identity map ${checked.error}`);
      identities = checked.state;
    }

    if (f.requester && resolveEmail(ix, identities, f.requester).customers.length === 0) {
      return fail(`--requester ${f.requester} is not a customer of seed ${seed.name}${identities.kind === "loaded" ? " (nor in the identity map)" : ""}`);
    }

    // Columns to fields.
    const overrides = parseMapFlags(f.map ?? [], rows.columns);
    if (!overrides.ok) return fail(overrides.message);
    const mapped = mapColumns(rows.columns, rows.records, overrides.map);
    if (!mapped.ok) return fail(mapped.message);
    const m = mapped.mapping;
    if (!m.fields.requester && !f.requester) return fail(`no column holds requester emails (columns: ${rows.columns.join(", ")}); name one with --map requester=<column>, or pin every row with --requester <email>`);
    if (!m.fields.subject && !m.fields.body) return fail(`no column looks like a subject or a body (columns: ${rows.columns.join(", ")}); name one with --map subject=<column> or --map body=<column>`);
    for (const line of describeMapping(m)) io.out(line + "\n");

    const doc = parseTasksDocument(docText);
    if (!doc.ok) return fail(`${intoShown}: ${doc.message}`);
    const plan = planImport(rows.records, m, ix, identities, {
      tag: f.tag,
      since: f.since ? parseDate(f.since)! : undefined,
      limit: f.limit,
      requester: f.requester,
      keepUnknown: f["keep-unknown"] === true,
      existingIds: existingTaskIds(doc.doc),
    });
    report(io, plan, opts.requestersLookedUp);
    if (plan.tasks.length === 0) {
      if (!exists) return fail(`no row of ${file} became a task, so ${intoShown} was not created`);
      io.out(`imported 0 tasks; ${intoShown} is unchanged\n`);
      return 0;
    }
    writeAll([{ path: intoPath, text: appendTasks(doc.doc, plan.tasks) }]);
    io.out(`imported ${plural(plan.tasks.length, "task")} from ${rows.records.length} ${rows.format.toUpperCase()} ${rows.records.length === 1 ? "row" : "rows"} into ${intoShown} (seed ${seed.name})\n`);
    io.out(`next: worlds tasks validate ${intoShown}\n`);
    return 0;
  } catch (e) {
    if (e instanceof ImportRefused || e instanceof ExportError) return fail(`${e instanceof ExportError ? `${file}: ` : ""}${e.message}`);
    throw e;
  }
}


/**
 * A new tasks file needs the account its tickets are on, and no default would be right: say so with the two
 * ways out, naming the seed files a `worlds seed import` left beside it, if any.
 */
function newFileNeedsSeed(io: CliIo, intoShown: string, intoDir: string): string {
  const seedsDir = join(intoDir, "seeds");
  const found = existsSync(seedsDir) ? readdirSync(seedsDir).filter((f) => f.endsWith(".json") && !/\.(manifest|identities)\.json$/.test(f)).map((f) => relative(io.cwd, join(seedsDir, f))) : [];
  const hint = found.length > 0 ? ` (here: ${found.slice(0, 3).join(", ")}${found.length > 3 ? ", …" : ""})` : " (a bundled name such as acme-prod-library, or the file `worlds seed import` wrote)";
  return `${intoShown} does not exist yet: name its seed with --seed <name or .json file>${hint}, or run \`worlds init\` first, which writes ${intoShown} on your account and lets tasks import append to it`;
}
