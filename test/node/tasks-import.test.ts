// tasks import: the CSV reader (RFC 4180), HTML bodies, priorities, tags and dates, the column mapping with its
// refusals, and the three example exports on the bundled seed's customers.
import { chmodSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runTasks } from "../../src/cli/commands/tasks";
import { parseCsv } from "../../src/cli/tasks/import/csv";
import { htmlToText } from "../../src/cli/tasks/import/html";
import { mapColumns, parseMapFlags } from "../../src/cli/tasks/import/mapping";
import { flatten, readExport } from "../../src/cli/tasks/import/rows";
import { normalisePriority, normaliseTags, parseDate } from "../../src/cli/tasks/import/values";
import type { CliIo } from "../../src/cli/tasks/io";
import { FIXTURES } from "./tasks-fixtures";
import { rubricDocument } from "../../src/core/rubric/schema";
import { buildResults, serializeResults } from "../../src/core/results/index";
import { syntheticInput } from "../../src/core/results/synthetic.fixture";
import { assertValidResults } from "./helpers/validate-results";

const EXAMPLES = join(import.meta.dirname, "..", "..", "examples", "help-desk-exports");
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), "worlds-tasks-import-"));
  dirs.push(d);
  return d;
}
async function run(cwd: string, argv: string[]) {
  let out = "";
  let err = "";
  const io: CliIo = { cwd, env: {}, out: (t) => void (out += t), err: (t) => void (err += t) };
  const code = await runTasks(argv, io);
  return { code, out, err };
}

describe("CSV (RFC 4180)", () => {
  it("reads quoted fields, doubled quotes, embedded newlines, CRLF and a BOM", () => {
    const t = parseCsv('\uFEFFa,b,c\r\n1,"two, with comma","say ""hi"""\r\n2,"line one\r\nline two",\r\n');
    expect(t.header).toEqual(["a", "b", "c"]);
    expect(t.rows).toEqual([
      ["1", "two, with comma", 'say "hi"'],
      ["2", "line one\r\nline two", ""],
    ]);
    expect(t.lines).toEqual([2, 3]);
  });

  it("skips blank lines, pads short rows, accepts a lone CR and a missing final newline", () => {
    expect(parseCsv("a,b\n\n1\n\n2,3").rows).toEqual([
      ["1", ""],
      ["2", "3"],
    ]);
    expect(parseCsv("a,b\r1,2\r3,4").rows).toEqual([
      ["1", "2"],
      ["3", "4"],
    ]);
    expect(parseCsv("a,b\n1,").rows).toEqual([["1", ""]]);
  });

  it("sniffs semicolons and tabs from the header, and names blank or repeated headers", () => {
    expect(parseCsv("a;b\n1;2,5").rows).toEqual([["1", "2,5"]]);
    expect(parseCsv("a\tb\n1\t2").delimiter).toBe("\t");
    expect(parseCsv("Name,,Name\n1,2,3").header).toEqual(["Name", "column 2", "Name (2)"]);
  });

  it("keeps a stray quote inside an unquoted field", () => {
    expect(parseCsv('a,b\n5" screen,x').rows).toEqual([['5" screen', "x"]]);
  });

  it("refuses an unterminated quote, text after a closing quote and extra fields, naming the line", () => {
    expect(() => parseCsv('a,b\n1,"open\n2,3\n')).toThrow('line 2: a quoted field opened here is never closed');
    expect(() => parseCsv('a,b\n1,"x"y\n')).toThrow("line 2: unexpected 'y' after a closing quote");
    expect(() => parseCsv("a,b\n1,2,3\n")).toThrow("line 2: 3 fields, but the header has 2");
    expect(() => parseCsv("")).toThrow("no header row");
  });

  it("reads ten thousand rows with multi-line fields in one pass", () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => `${i},"body ${i}\nsecond line, with ""quotes"""`);
    const t = parseCsv(`id,body\n${rows.join("\n")}\n`);
    expect(t.rows).toHaveLength(10_000);
    expect(t.rows[9999]).toEqual(["9999", 'body 9999\nsecond line, with "quotes"']);
    expect(t.lines[9999]).toBe(2 + 9999 * 2);
  });
});

describe("row values", () => {
  it("turns HTML into text", () => {
    expect(htmlToText("<p>Hi,</p><p>We lost a <b>day</b> &amp; more&#39;s &#x2014; sorry<br>Thanks</p><ul><li>one</li><li>two</li></ul><script>x()</script>")).toBe(
      "Hi,\n\nWe lost a day & more's — sorry\nThanks\n\n- one\n- two",
    );
  });

  it("normalises priorities, keeping unknown words out", () => {
    expect(["Urgent", "P1", "critical", "High", "priority", "P2", "Medium", "not_priority", "normal", "Low", "P4"].map(normalisePriority)).toEqual([
      "urgent",
      "urgent",
      "urgent",
      "high",
      "high",
      "high",
      "normal",
      "normal",
      "normal",
      "low",
      "low",
    ]);
    expect(normalisePriority("whenever")).toBe("unknown");
    expect(normalisePriority("")).toBeNull();
    expect(normalisePriority(null)).toBeNull();
  });

  it("reads tags from text, lists and tag objects", () => {
    expect(normaliseTags("billing duplicate_charge")).toEqual(["billing", "duplicate_charge"]);
    expect(normaliseTags("billing, refund,billing")).toEqual(["billing", "refund"]);
    expect(normaliseTags([{ type: "tag", name: "vip" }, { name: "billing" }])).toEqual(["vip", "billing"]);
  });

  it("reads dates from unix seconds, milliseconds and ISO-like text, refusing locale formats", () => {
    expect(parseDate(1789473600)?.toISOString()).toBe("2026-09-15T12:00:00.000Z");
    expect(parseDate(1789473600000)?.toISOString()).toBe("2026-09-15T12:00:00.000Z");
    expect(parseDate("1789473600")?.toISOString()).toBe("2026-09-15T12:00:00.000Z");
    expect(parseDate("2026-09-10 09:15:02 UTC")?.toISOString()).toBe("2026-09-10T09:15:02.000Z");
    expect(parseDate("2026-09-10T09:15:02+02:00")?.toISOString()).toBe("2026-09-10T07:15:02.000Z");
    expect(parseDate("2026-09-10")?.toISOString()).toBe("2026-09-10T00:00:00.000Z");
    expect(parseDate("09/10/2026")).toBeNull();
    expect(parseDate("soon")).toBeNull();
  });

  it("flattens nested JSON to dotted keys, keeping lists", () => {
    expect(flatten({ id: 1, source: { author: { email: "a@b.c", type: "user" }, body: "<p>x</p>" }, tags: { tags: [{ name: "t" }] } })).toEqual({
      id: 1,
      "source.author.email": "a@b.c",
      "source.author.type": "user",
      "source.body": "<p>x</p>",
      "tags.tags": [{ name: "t" }],
    });
  });

  it("reads JSON arrays, {data: [...]} and JSON lines, by extension or by content", () => {
    expect(readExport("x.json", '[{"a":1}]').records).toEqual([{ a: 1 }]);
    expect(readExport("x.json", '{"data":[{"a":1},{"b":2}]}').columns).toEqual(["a", "b"]);
    expect(readExport("x.jsonl", '{"a":1}\n\n{"a":2}\n').records).toHaveLength(2);
    expect(readExport("export", '{"a":1}\n{"a":2}\n').format).toBe("jsonl");
    expect(readExport("export", "a,b\n1,2\n").format).toBe("csv");
    expect(() => readExport("x.jsonl", '{"a":1}\n{oops}\n')).toThrow("JSON lines: line 2 is not JSON");
    expect(() => readExport("x.json", '{"rows":[]}')).toThrow("expected an array of rows or an object holding one");
    expect(() => readExport("x.json", "[1]")).toThrow("item 1 is not an object");
  });
});

describe("column mapping", () => {
  const recs = (cols: string[], values: string[]) => [Object.fromEntries(cols.map((c, i) => [c, values[i]]))];

  it("maps by name and synonym, telling names from emails", () => {
    const cols = ["Id", "Requester", "Requester email", "Subject", "Description", "Created at", "Status"];
    const m = mapColumns(cols, recs(cols, ["1", "Ann", "ann@x.example", "S", "B", "2026-01-01", "open"]), {});
    expect(m).toEqual({
      ok: true,
      mapping: { fields: { id: "Id", requester: "Requester email", requester_name: "Requester", subject: "Subject", body: "Description", created: "Created at" }, unmapped: ["Status"] },
    });
  });

  it("refuses two columns tied for a field, naming both and the --map that settles it", () => {
    const cols = ["Subject", "Description", "Details", "Email"];
    const m = mapColumns(cols, recs(cols, ["s", "d", "e", "a@x.example"]), {});
    expect(m).toEqual({ ok: false, message: "columns 'Description' and 'Details' both look like body; choose one with --map body=Description" });
    const settled = mapColumns(cols, recs(cols, ["s", "d", "e", "a@x.example"]), { body: "Details" });
    expect(settled.ok && settled.mapping.fields.body).toBe("Details");
    expect(settled.ok && settled.mapping.unmapped).toEqual(["Description"]);
  });

  it("checks --map fields and columns", () => {
    expect(parseMapFlags(["body=Details,subject=Summary"], ["Details", "Summary"])).toEqual({ ok: true, map: { body: "Details", subject: "Summary" } });
    expect(parseMapFlags(["body=details"], ["Details"])).toEqual({ ok: true, map: { body: "Details" } });
    expect(parseMapFlags(["colour=Details"], ["Details"])).toMatchObject({ ok: false, message: expect.stringContaining("no field 'colour'") });
    expect(parseMapFlags(["body=Nope"], ["Details"])).toMatchObject({ ok: false, message: expect.stringContaining("no column 'Nope'") });
    expect(parseMapFlags(["body"], ["Details"])).toMatchObject({ ok: false, message: expect.stringContaining("field=column pairs") });
  });
});

describe("importing the example exports on acme-small", () => {
  it("imports the Zendesk CSV: requester email and name told apart, bodies from subjects, the unknown requester skipped", async () => {
    const dir = tmp();
    const r = await run(dir, ["import", join(EXAMPLES, "zendesk-tickets.csv"), "--into", "tasks.yaml", "--seed", "acme-small"]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    const lines = r.out.split("\n");
    expect(lines[0]).toBe("mapped: id ← Id, requester ← Requester email, requester_name ← Requester, subject ← Subject, priority ← Priority, tags ← Tags, created ← Created at");
    expect(lines[1]).toBe("unmapped → metadata: Summation column, Requester id, Requester external id, Requester domain, Submitter, Assignee, Group, Status, Via, Ticket type, Updated at");
    expect(r.out).toContain("skipped 1 row from 1 requester the account does not know (pat.doe@unknown-company.example)");
    // seed import takes --sample, not --limit (that one is tasks import's own).
    expect(r.out).toContain("raise --sample on seed import");
    expect(r.out).toContain("imported 5 tasks from 6 CSV rows into tasks.yaml (seed acme-small)");
    const text = readFileSync(join(dir, "tasks.yaml"), "utf8");
    expect(text).toContain('  - id: "5102"\n    requester: accounts.delta@example.com\n    requester_name: Delta Dental Group\n    subject: Card declined, please retry the September invoice\n    body: Card declined, please retry the September invoice\n    priority: urgent\n    tags: [billing, payment_failed]');
    expect(text).toContain("Created at: 2026-09-11T14:02:40.000Z");
    // The Harbor accounts share an address, and a policy-only task cannot say which: validate names it.
    const v = await run(dir, ["validate", "tasks.yaml"]);
    expect(v.code).toBe(2);
    expect(v.err).toContain("task 5104: accounts.harbor@example.com is shared by 2 accounts (cus_AcmeHarborMain, cus_AcmeHarborDowntown)");
    expect(v.err).toContain("1 problem\n");
  });

  it("imports the bundled library export onto the account worlds init writes by default (acme-prod-library)", async () => {
    const dir = tmp();
    writeFileSync(join(dir, "tasks.yaml"), "version: 1\nseed: acme-prod-library\ninvariants: [deleted.customers==0]\ntasks: []\n");
    const r = await run(dir, ["import", join(EXAMPLES, "library", "zendesk-tickets.csv"), "--into", "tasks.yaml"]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain("skipped 1 row from 1 requester the account does not know (pat.doe@unknown-company.example)");
    expect(r.out).toContain("imported 5 tasks from 6 CSV rows into tasks.yaml (seed acme-prod-library)");
  });

  it("keeps an export's metadata (assignee, group, custom fields) through the rubric to the results JSON and the report", async () => {
    const dir = tmp();
    expect((await run(dir, ["import", join(EXAMPLES, "zendesk-tickets.csv"), "--into", "tasks.yaml", "--seed", "acme-small"])).code).toBe(0);
    const built = await run(dir, ["build", "tasks.yaml", "--out-seed", "seed.json", "--out-rubric", "rubric.json"]);
    // 5104 is on a shared address (validate names it): the file builds without it.
    expect(built.code, built.err).toBe(2);
    const text = readFileSync(join(dir, "tasks.yaml"), "utf8").replace(/\n  - id: "5104"[\s\S]*?(?=\n  - id: )/, "");
    writeFileSync(join(dir, "tasks.yaml"), text);
    const ok = await run(dir, ["build", "tasks.yaml", "--out-seed", "seed.json", "--out-rubric", "rubric.json"]);
    expect(ok.code, ok.err).toBe(0);
    const rubric = rubricDocument.parse(JSON.parse(readFileSync(join(dir, "rubric.json"), "utf8")));
    const t5101 = rubric.tickets.find((t) => t.label === "5101")!;
    expect(t5101.metadata).toMatchObject({ Assignee: "Sam Ortiz", Group: "Billing", Status: "open", Via: "Mail", "Ticket type": "problem" });
    const results = buildResults(syntheticInput({ rubric, episodes: [], run_checks: [], setup_failure: undefined }));
    const item = results.tasks.items.find((i) => i.id === "5101")!;
    expect(item.metadata).toMatchObject({ Assignee: "Sam Ortiz", Group: "Billing" });
    assertValidResults(JSON.parse(serializeResults(results)));
  });

  it("imports the Intercom JSON: flattened, HTML to text, tag objects to names, the admin-initiated conversation skipped", async () => {
    const dir = tmp();
    const r = await run(dir, ["import", join(EXAMPLES, "intercom-conversations.json"), "--into", "tasks.yaml", "--seed", "acme-small"]);
    expect(r.code).toBe(0);
    expect(r.out.split("\n")[0]).toBe(
      "mapped: id ← id, requester ← source.author.email, requester_name ← source.author.name, subject ← title, body ← source.body, priority ← priority, tags ← tags.tags, created ← created_at",
    );
    expect(r.out).toContain("skipped 1 row with no requester email");
    expect(r.out).toContain("imported 4 tasks from 5 JSON rows");
    const text = readFileSync(join(dir, "tasks.yaml"), "utf8");
    expect(text).toContain("    body: |-\n      Hi,\n\n      We lost a full day to the outage on Sept 8. Could you refund part of this month's charge?\n\n      Thanks & regards,\n      Iris Health billing\n    priority: high\n    tags: [billing, outage]");
    expect(text).toContain("    subject: Please cancel our subscription at the end of the current period.\n");
    expect(text).toContain("created_at: 2026-09-09T10:00:00.000Z");
    expect(text).not.toContain("alex@acme-support.example");
    expect((await run(dir, ["validate", "tasks.yaml"])).code).toBe(0);
  });

  it("imports the spreadsheet: BOM, CRLF, multi-line cells, outcomes in the grammar as keys, the rest in metadata", async () => {
    const dir = tmp();
    const r = await run(dir, ["import", join(EXAMPLES, "spreadsheet.csv"), "--into", "tasks.yaml", "--seed", "acme-small"]);
    expect(r.code).toBe(0);
    expect(r.out.split("\n")[0]).toBe(
      "mapped: id ← Ticket #, requester ← Customer Email, requester_name ← Customer, subject ← Summary, body ← Details, priority ← Priority, tags ← Labels, expected ← Expected outcome, created ← Opened",
    );
    expect(r.out).toContain("kept 1 outcome that is not an expected line in metadata");
    const text = readFileSync(join(dir, "tasks.yaml"), "utf8");
    expect(text).toContain("    expected: refund $99.00 on ch_AcmeNorthwindDup\n");
    expect(text).toContain("      Priority: whenever\n      Expected outcome: Give them 10% off\n");
    expect(text).toContain("    body: |-\n      We see three $99.00 charges this quarter.\n      One of them is a duplicate, please refund it.\n");
    const v = await run(dir, ["validate", "tasks.yaml"]);
    expect(v.err).toBe("");
    expect(v.out).toContain("tasks: 4 (3 keyed, 1 policy-only) on acme-small · isolated · 2 invariants");
  });

  it("appends to an existing file keeping its comments, and a second import adds nothing", async () => {
    const dir = tmp();
    writeFileSync(join(dir, "tasks.yaml"), "# my tasks\nversion: 1\nseed: acme-small # bundled\ninvariants: [deleted.customers==0]\ntasks:\n  - id: S-2 # mine\n    requester: bursar.juniper@example.com\n    subject: Mine\n    body: Mine.\n");
    const first = await run(dir, ["import", join(EXAMPLES, "spreadsheet.csv"), "--into", "tasks.yaml"]);
    expect(first.out).toContain("skipped 1 row whose id the file already holds");
    expect(first.out).toContain("imported 3 tasks");
    const text = readFileSync(join(dir, "tasks.yaml"), "utf8");
    expect(text.startsWith("# my tasks\nversion: 1\nseed: acme-small # bundled\n")).toBe(true);
    expect(text).toContain("  - id: S-2 # mine\n");
    const second = await run(dir, ["import", join(EXAMPLES, "spreadsheet.csv"), "--into", "tasks.yaml"]);
    expect(second.code).toBe(0);
    expect(second.out).toContain("imported 0 tasks; tasks.yaml is unchanged");
    expect(readFileSync(join(dir, "tasks.yaml"), "utf8")).toBe(text);
  });
});

describe("import options and refusals", () => {
  const csv = "Ticket #,Email,Subject,Body,Tags,Date\nA1,ceo@northwind.com,Real one,Refund please,billing,2026-09-01\nA2,billing@northwind.example.com,Seed one,Hello,other,2026-09-05\nA3,nobody@else.example,Unknown,Hi,billing,2026-09-09\n";

  function world(): string {
    const root = tmp();
    cpSync(join(FIXTURES, "tasks-seed"), join(root, "seeds"), { recursive: true });
    chmodSync(join(root, "seeds", "tasks-fixture.identities.json"), 0o600);
    writeFileSync(join(root, "export.csv"), csv);
    return root;
  }

  it("turns real requesters into the seed's pseudonyms through the identity map", async () => {
    const dir = world();
    const r = await run(dir, ["import", "export.csv", "--into", "tasks.yaml", "--seed", "seeds/account.json", "--identity-map", "seeds/tasks-fixture.identities.json"]);
    expect(r.err).toBe("");
    expect(r.out).toContain("replaced 1 real requester with the seed's pseudonyms (identity map)");
    const text = readFileSync(join(dir, "tasks.yaml"), "utf8");
    expect(text).toContain("seed: seeds/account.json");
    expect(text).toContain("  - id: A1\n    requester: billing@northwind.example.com\n    requester_name: Northwind Traders\n");
    expect(text).not.toContain("ceo@northwind.com");
  });

  it("refuses a map other users can read, or one written for another seed, before writing anything", async () => {
    const dir = world();
    chmodSync(join(dir, "seeds", "tasks-fixture.identities.json"), 0o644);
    const r = await run(dir, ["import", "export.csv", "--into", "tasks.yaml", "--seed", "seeds/account.json", "--identity-map", "seeds/tasks-fixture.identities.json"]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      "worlds tasks import: identity map seeds/tasks-fixture.identities.json can be read by other users (mode 644); it holds real emails, so run chmod 600 seeds/tasks-fixture.identities.json\nnothing written\n",
    );
    chmodSync(join(dir, "seeds", "tasks-fixture.identities.json"), 0o600);
    const map = JSON.parse(readFileSync(join(dir, "seeds", "tasks-fixture.identities.json"), "utf8")) as Record<string, unknown>;
    writeFileSync(join(dir, "other.identities.json"), JSON.stringify({ ...map, seed: "acme-small" }), { mode: 0o600 });
    const other = await run(dir, ["import", "export.csv", "--into", "tasks.yaml", "--seed", "seeds/account.json", "--identity-map", "other.identities.json"]);
    expect(other.code).toBe(2);
    expect(other.err).toContain("was written for seed 'acme-small', not 'tasks-fixture'");
    expect(existsSync(join(dir, "tasks.yaml"))).toBe(false);
  });

  it("filters by --tag, --since and --limit, keeps unknown requesters on request, pins with --requester", async () => {
    const dir = world();
    const tagged = await run(dir, ["import", "export.csv", "--into", "a.yaml", "--seed", "seeds/account.json", "--tag", "billing", "--keep-unknown"]);
    expect(tagged.out).toContain("skipped 1 row without the tag");
    expect(readFileSync(join(dir, "a.yaml"), "utf8")).toContain("requester: nobody@else.example");
    const since = await run(dir, ["import", "export.csv", "--into", "b.yaml", "--seed", "seeds/account.json", "--since", "2026-09-04", "--keep-unknown", "--limit", "1"]);
    expect(since.out).toContain("skipped 1 row created before --since");
    expect(since.out).toContain("left out 1 row past --limit");
    expect(readFileSync(join(dir, "b.yaml"), "utf8")).toContain("id: A2");
    const pinned = await run(dir, ["import", "export.csv", "--into", "c.yaml", "--seed", "seeds/account.json", "--requester", "ops@silverline.example.com"]);
    expect(pinned.out).toContain("imported 3 tasks");
    expect(readFileSync(join(dir, "c.yaml"), "utf8").match(/requester: ops@silverline\.example\.com\n    requester_name: Silverline Ops/g)).toHaveLength(3);
  });

  it("refuses bad inputs with nothing written", async () => {
    const dir = world();
    writeFileSync(join(dir, "garbage.csv"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0xff]));
    const garbage = await run(dir, ["import", "garbage.csv", "--into", "t.yaml", "--seed", "seeds/account.json"]);
    expect(garbage.err).toBe("worlds tasks import: garbage.csv is binary, not a CSV or JSON export (it holds a NUL byte)\nnothing written\n");
    const noSeed = await run(dir, ["import", "export.csv", "--into", "t.yaml"]);
    expect(noSeed.err).toContain("t.yaml does not exist yet: name its seed with --seed <name or .json file> (here: seeds/account.json), or run `worlds init` first");
    writeFileSync(join(dir, "tie.csv"), "Email,Subject,Description,Details\na@b.example,s,d,e\n");
    const tie = await run(dir, ["import", "tie.csv", "--into", "t.yaml", "--seed", "seeds/account.json"]);
    expect(tie.err).toContain("columns 'Description' and 'Details' both look like body; choose one with --map body=Description");
    writeFileSync(join(dir, "nomail.csv"), "Name,Subject\nAnn,s\n");
    const noRequester = await run(dir, ["import", "nomail.csv", "--into", "t.yaml", "--seed", "seeds/account.json"]);
    expect(noRequester.err).toContain("no column holds requester emails");
    const badSince = await run(dir, ["import", "export.csv", "--into", "t.yaml", "--seed", "seeds/account.json", "--since", "last week"]);
    expect(badSince.err).toContain("--since must be a date such as 2026-09-01");
    const unknownPin = await run(dir, ["import", "export.csv", "--into", "t.yaml", "--seed", "seeds/account.json", "--requester", "x@y.example"]);
    expect(unknownPin.err).toContain("--requester x@y.example is not a customer of seed tasks-fixture");
    for (const r of [garbage, noSeed, tie, noRequester, badSince, unknownPin]) expect(r.code).toBe(2);
    expect(existsSync(join(dir, "t.yaml"))).toBe(false);
  });
});
