// `worlds seed import --from-stripe`: reads an account through the billing API, pseudonymises its customers and
// writes a seed (with its manifest, and the identity map when asked) that worlds can build worlds from.
import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, relative, resolve } from "node:path";
import { z } from "zod";
import { parseSeed, seedHash } from "../../core/world/seed/parse";
import { moneyIndex, SeedConsistencyError } from "../../../durable-objects/stripe/resources/money/seed-index";
import { flag, helpText, parseArgs, type FlagDefs } from "../flags";
import type { CliIo } from "../tasks/io";
import { mapColumns, parseMapFlags } from "../tasks/import/mapping";
import { ExportError, readExport } from "../tasks/import/rows";
import { crawl } from "./crawl";
import { toSeed } from "./map";
import { identityMapDocument, manifestDocument, writeOutputs } from "./outputs";
import { deriveSalt, Pseudonymizer, type SaltSource } from "./pseudonym";
import { SourceError, stripeSource, type BillingSource } from "./source";

const DEFS: FlagDefs = {
  "from-stripe": { kind: "switch", help: "read the account through the Stripe API (the only source today)" },
  "api-key": { kind: "value", placeholder: "K", help: "a secret or restricted key with read access (default: $STRIPE_API_KEY)" },
  "api-base": { kind: "value", placeholder: "URL", help: "the API's base URL (default https://api.stripe.com)" },
  sample: { kind: "value", placeholder: "N", help: "the newest N of each resource (default 100), then every object they reference" },
  tickets: { kind: "value", placeholder: "EXPORT", help: "a help desk export whose requesters are copied in with their subscriptions, invoices and charges" },
  map: { kind: "list", placeholder: "requester=COLUMN", help: "name the export's requester column when its name does not say so" },
  "identity-map": { kind: "value", placeholder: "F", help: "also write real customers to their pseudonyms here (mode 0600; keep it out of git)" },
  out: { kind: "value", placeholder: "F.json", help: "the seed to write (its manifest goes beside it as F.manifest.json)" },
  name: { kind: "value", placeholder: "NAME", help: "the seed's name (default: the --out file's name)" },
  salt: { kind: "value", placeholder: "PHRASE", help: "derive pseudonyms from this phrase instead of the account id (the same phrase keeps them stable)" },
  clock: { kind: "value", placeholder: "ISO", help: "the world clock (default: the newest moment in the data)" },
};
const SCHEMA = z.strictObject({
  "from-stripe": flag.switch(),
  "api-key": flag.text().optional(),
  "api-base": flag.url().optional(),
  sample: flag.int(1, 10_000).optional(),
  tickets: flag.text().optional(),
  map: flag.list().optional(),
  "identity-map": flag.text().optional(),
  out: flag.text().optional(),
  name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, { message: "must be lower-case letters, digits and dashes" }).optional(),
  salt: z.string().min(8, { message: "must be at least 8 characters" }).optional(),
  clock: z.iso.datetime({ offset: true, message: "must be an ISO date-time such as 2026-09-15T12:00:00Z" }).optional(),
});
export const SEED_IMPORT_USAGE =
  "worlds seed import --from-stripe --api-key K [--api-base URL] [--sample N] [--tickets EXPORT] [--map requester=COLUMN]...\n" +
  "                   [--identity-map F] [--salt PHRASE] [--name NAME] [--clock ISO] --out worlds/seeds/NAME.json";

const MAX_EXPORT_BYTES = 256 * 1024 * 1024;

class ImportRefused extends Error {}

export interface SeedImportDeps {
  /** The billing API (tests pass their own); default: the official client against --api-base. */
  source?: (apiKey: string, apiBase: string) => Promise<BillingSource>;
}

export async function seedImportCommand(io: CliIo, argv: string[], deps: SeedImportDeps = {}): Promise<number> {
  const args = parseArgs("seed import", argv, DEFS, SCHEMA);
  if (args.help) {
    io.out(helpText(SEED_IMPORT_USAGE, "Reads a billing account, pseudonymises its customers and writes a seed worlds can build worlds from.", DEFS));
    return 0;
  }
  const f = args.flags;
  const fail = (message: string, code = 2) => {
    io.err(`worlds seed import: ${message}\nnothing written\n`);
    return code;
  };
  if (!f["from-stripe"]) return fail("say where to read from: --from-stripe (the only source today)");
  const apiKey = f["api-key"] ?? io.env.STRIPE_API_KEY;
  if (!apiKey) return fail("no API key: pass --api-key K or set STRIPE_API_KEY (a restricted key with read access is enough)");
  if (!f.out) return fail("name the seed to write: --out worlds/seeds/NAME.json");
  if (!f.out.endsWith(".json")) return fail(`--out ${f.out} must end in .json`);
  const name = f.name ?? basename(f.out, ".json");
  if (!/^[a-z0-9][a-z0-9-]*$/.test(name)) return fail(`the seed's name '${name}' (from --out) must be lower-case letters, digits and dashes; pass --name`);
  const outPath = resolve(io.cwd, f.out);
  const manifestPath = outPath.replace(/\.json$/, ".manifest.json");
  const mapPath = f["identity-map"] ? resolve(io.cwd, f["identity-map"]) : null;
  const sample = f.sample ?? 100;

  try {
    const emails = f.tickets ? requesterEmails(io, f.tickets, f.map ?? []) : undefined;
    const source = await (deps.source ?? stripeSource)(apiKey, f["api-base"] ?? "https://api.stripe.com");

    let saltSource: SaltSource;
    let salt: Buffer;
    if (f.salt) {
      saltSource = "phrase";
      salt = deriveSalt("phrase", f.salt);
    } else {
      const account = await source.accountId();
      if (!account) return fail("this key cannot read the account's id (GET /v1/account), which the pseudonyms are derived from: pass --salt <phrase> (at least 8 characters; use the same phrase on every import of this account)");
      saltSource = "account";
      salt = deriveSalt("account", account);
    }

    const result = await crawl(source, { sample, requesterEmails: emails, onProgress: (l) => io.out(`${l}\n`) });
    const mapped = toSeed(result.objects, new Pseudonymizer(salt), {
      name,
      description: `Imported by worlds seed import: the newest ${sample} of each billing resource and everything they reference${emails ? ", plus the customers a ticket export names" : ""}; customers pseudonymised.`,
      clock: f.clock ? new Date(f.clock).toISOString().replace(/\.\d{3}Z$/, "Z") : undefined,
    });
    for (const m of result.missing) mapped.warnings.push(`referenced ${m.kind.replace("_", " ")} ${m.id} could not be read (deleted, or outside the key's access)`);
    mapped.warnings.sort();

    const parsed = parseSeed(mapped.seed);
    if (!parsed.ok) return fail(`the imported seed does not validate (a bug in the import; please report it): ${parsed.issues.slice(0, 5).map((i) => `${i.path}: ${i.message}`).join("; ")}`, 1);
    let consistency: string | null = null;
    try {
      moneyIndex(parsed.seed);
    } catch (e) {
      if (!(e instanceof SeedConsistencyError)) throw e;
      consistency = e.message;
    }
    const hash = await seedHash(parsed.seed);
    const tickets = emails ? { requesters: emails.length, copied_in: result.requesters.found.length, not_customers: result.requesters.unknown.length } : null;
    const manifest = await manifestDocument({ seed: parsed.seed, seedHash: hash, sample, salt: saltSource, tickets, warnings: mapped.warnings });
    const files = [
      { path: outPath, text: JSON.stringify(mapped.seed, null, 2) + "\n" },
      { path: manifestPath, text: JSON.stringify(manifest, null, 2) + "\n" },
      ...(mapPath ? [{ path: mapPath, text: JSON.stringify(identityMapDocument(parsed.seed, hash, mapped.identities), null, 2) + "\n", private: true }] : []),
    ];
    writeOutputs(files);

    const shown = (p: string) => relative(io.cwd, p) || p;
    const counts = Object.entries(parsed.seed.data).filter(([, v]) => v.length > 0).map(([k, v]) => `${v.length} ${k.replace("_", " ")}`).join(", ");
    io.out(`wrote ${shown(outPath)}: ${counts} (clock ${parsed.seed.clock}, ${result.requests} API requests)\n`);
    io.out(`wrote ${shown(manifestPath)} (shareable: counts and hashes, no identities)\n`);
    if (mapPath) io.out(`wrote ${shown(mapPath)} (mode 0600: real customers to their pseudonyms; never commit it)\n`);
    if (tickets) {
      io.out(`tickets: ${tickets.requesters} requester(s) in ${f.tickets}, ${tickets.copied_in} copied in with their subscriptions, invoices and charges\n`);
      if (result.requesters.unknown.length)
        io.out(`  ${result.requesters.unknown.length} are not customers of this account (${result.requesters.unknown.slice(0, 5).join(", ")}${result.requesters.unknown.length > 5 ? ", ..." : ""}); their tickets will be skipped by tasks import\n`);
    }
    if (mapped.warnings.length) io.out(`${mapped.warnings.length} note(s) in the manifest, e.g. ${mapped.warnings[0]}\n`);
    if (consistency) io.out(`warning: the twin will refuse this seed until this is fixed: ${consistency}\n`);
    io.out(`next: worlds tasks import <export> --into worlds/tasks.yaml --seed ${shown(outPath)}${mapPath ? ` --identity-map ${shown(mapPath)}` : ""}\n`);
    return 0;
  } catch (e) {
    if (e instanceof SourceError || e instanceof ImportRefused || e instanceof ExportError) return fail(e.message, e instanceof SourceError ? 3 : 2);
    throw e;
  }
}

/** The export's requester emails, in order of first appearance, each once (compared without case). */
function requesterEmails(io: CliIo, file: string, mapFlags: string[]): string[] {
  const path = resolve(io.cwd, file);
  if (!existsSync(path)) throw new ImportRefused(`--tickets ${file}: no such file`);
  if (statSync(path).size > MAX_EXPORT_BYTES) throw new ImportRefused(`--tickets ${file} is larger than ${MAX_EXPORT_BYTES / 1024 / 1024} MiB; filter it at the source`);
  const rows = readExport(file, readFileSync(path, "utf8"));
  const overrides = parseMapFlags(mapFlags, rows.columns);
  if (!overrides.ok) throw new ImportRefused(overrides.message);
  const mapped = mapColumns(rows.columns, rows.records, overrides.map);
  if (!mapped.ok) throw new ImportRefused(`--tickets ${file}: ${mapped.message}`);
  const column = mapped.mapping.fields.requester;
  if (!column) throw new ImportRefused(`--tickets ${file}: no column holds requester emails (columns: ${rows.columns.join(", ")}); name it with --map requester=<column>`);
  const seen = new Set<string>();
  const out: string[] = [];
  for (const r of rows.records) {
    const v = r[column];
    if (typeof v !== "string" || !v.includes("@")) continue;
    const email = v.trim();
    if (seen.has(email.toLowerCase())) continue;
    seen.add(email.toLowerCase());
    out.push(email);
  }
  return out;
}
