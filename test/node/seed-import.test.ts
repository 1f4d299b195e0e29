// `worlds seed import --from-stripe` end to end, with a world of the twin standing in for a real account: the
// official client reads it, customers come out pseudonymised, two imports are byte-identical, the seed builds a
// world, and a tasks file naming real customers compiles through the identity map.
import { mkdtempSync, readFileSync, statSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalServer, type LocalServer } from "../../src/cli/server/local";
import { seedImportCommand } from "../../src/cli/seed-import/command";
import { runTasks } from "../../src/cli/commands/tasks";
import { parseSeed } from "../../src/core/world/seed/parse";
import type { CliIo } from "../../src/cli/tasks/io";
import { ROOT } from "./helpers/cli";

interface World {
  id: string;
  key: string;
  stripe_api_base: string;
}

const ACME = JSON.parse(readFileSync(join(ROOT, "seeds", "acme-small.json"), "utf8")) as { data: { customers: Array<{ id: string; email: string; name: string }> } };

function io(cwd: string): CliIo & { stdout: () => string; stderr: () => string } {
  let out = "";
  let err = "";
  return { cwd, env: {}, out: (t) => void (out += t), err: (t) => void (err += t), stdout: () => out, stderr: () => err };
}

let server: LocalServer;
let world: World;

async function admin(method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${server.url}${path}`, { method, headers: { authorization: `Bearer ${server.token}`, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
}

beforeAll(async () => {
  server = await startLocalServer();
  world = (await (await admin("POST", "/admin/worlds", { seed: "acme-small" })).json()) as World;
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

async function importInto(dir: string, extra: string[] = []) {
  const x = io(dir);
  const code = await seedImportCommand(x, [
    "--from-stripe", "--api-key", world.key, "--api-base", world.stripe_api_base, "--salt", "acme test account",
    "--identity-map", "worlds/acme-import.identities.json", "--out", "worlds/seeds/acme-import.json", ...extra,
  ]);
  return { code, out: x.stdout(), err: x.stderr() };
}

const read = (dir: string, p: string) => readFileSync(join(dir, p), "utf8");

describe("seed import from a world of the twin", () => {
  const dir = mkdtempSync(join(tmpdir(), "worlds-seed-import-"));

  it("writes a valid seed with every customer pseudonymised, a shareable manifest and a private identity map", async () => {
    const r = await importInto(dir);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/wrote worlds\/seeds\/acme-import\.json: 15 customers/);
    const seedText = read(dir, "worlds/seeds/acme-import.json");
    const parsed = parseSeed(JSON.parse(seedText));
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const seed = parsed.seed;
    expect(seed.name).toBe("acme-import");
    expect(seed.data.customers).toHaveLength(15);
    for (const c of seed.data.customers) {
      expect(c.id).toMatch(/^cus_imp[A-Za-z0-9]{11}$/);
      expect(c.email).toMatch(/^[a-z]+\.[a-z]+\.[0-9a-f]{6}@example\.com$/);
    }
    // Nothing real survives in the seed or the manifest: no id, email or name of the account's customers.
    const manifestText = read(dir, "worlds/seeds/acme-import.manifest.json");
    for (const real of ACME.data.customers)
      for (const value of [real.id, real.email, real.name]) {
        expect(seedText.toLowerCase()).not.toContain(value.toLowerCase());
        expect(manifestText.toLowerCase()).not.toContain(value.toLowerCase());
      }
    // Two accounts that share a billing email still share one pseudonymous email.
    const shared = seed.data.customers.filter((c) => seed.data.customers.filter((d) => d.email === c.email).length > 1);
    expect(shared).toHaveLength(2);

    const manifest = JSON.parse(manifestText) as { counts: Record<string, number>; seed_hash: string; hashes: Record<string, string> };
    expect(manifest.counts.customers).toBe(15);
    expect(manifest.counts.charges).toBe(seed.data.charges.length);
    expect(manifest.hashes.seed).toBe(manifest.seed_hash);

    const mapPath = join(dir, "worlds", "acme-import.identities.json");
    expect(statSync(mapPath).mode & 0o777).toBe(0o600);
    const map = JSON.parse(read(dir, "worlds/acme-import.identities.json")) as { version: number; seed: string; seed_hash: string; customers: Array<{ id: string; email: string; name: string; pseudonym: { id: string; email: string; name: string } }> };
    expect(map).toMatchObject({ version: 1, seed: "acme-import", seed_hash: manifest.seed_hash });
    const northwind = map.customers.find((c) => c.email === "billing.northwind@example.com")!;
    expect(northwind).toMatchObject({ id: "cus_AcmeNorthwind", name: "Northwind Traders" });
    const pseudo = seed.data.customers.find((c) => c.id === northwind.pseudonym.id)!;
    expect(pseudo).toMatchObject({ email: northwind.pseudonym.email, name: northwind.pseudonym.name });
    // The customer's charges, invoices and subscriptions point at the pseudonym.
    expect(seed.data.charges.filter((c) => c.customer === pseudo.id).length).toBeGreaterThan(0);
    expect(seed.data.invoices.filter((i) => i.customer === pseudo.id).length).toBeGreaterThan(0);
  }, 120_000);

  it("a second import of the same account writes identical bytes", async () => {
    const other = mkdtempSync(join(tmpdir(), "worlds-seed-import-again-"));
    expect((await importInto(other)).code).toBe(0);
    for (const f of ["worlds/seeds/acme-import.json", "worlds/seeds/acme-import.manifest.json", "worlds/acme-import.identities.json"]) expect(read(other, f)).toBe(read(dir, f));
  }, 120_000);

  it("the seed builds a world on the server", async () => {
    const res = await admin("POST", "/admin/worlds", { seed: JSON.parse(read(dir, "worlds/seeds/acme-import.json")) });
    expect(res.status, await res.clone().text()).toBe(201);
    const created = (await res.json()) as { id: string };
    await admin("DELETE", `/admin/worlds/${created.id}`);
  });

  it("a tasks file naming real customers validates and compiles through the identity map", async () => {
    writeFileSync(
      join(dir, "worlds", "tasks.yaml"),
      [
        "version: 1",
        "seed: seeds/acme-import.json",
        "identity_map: acme-import.identities.json",
        "invariants:",
        "  - deleted.customers==0",
        "tasks:",
        "  - id: ZD-1",
        "    requester: billing.northwind@example.com",
        "    subject: Charged twice for September",
        "    body: Our September payment of $99.00 went through twice. Please refund one.",
        "    expected: refund $99.00 on duplicate",
        "  - id: ZD-2",
        "    requester: studio.lumen@example.com",
        "    subject: Cancel at period end",
        "    body: Please cancel our plan at the end of the period.",
        "    expected: cancel at period end",
        "",
      ].join("\n"),
    );
    const v = io(dir);
    expect(await runTasks(["validate", "worlds/tasks.yaml"], v), v.stderr()).toBe(0);
    const b = io(dir);
    expect(await runTasks(["build", "worlds/tasks.yaml", "--out-seed", "built-seed.json", "--out-rubric", "built-rubric.json"], b), b.stderr()).toBe(0);
    const built = JSON.parse(read(dir, "built-seed.json")) as { data: { tickets: Array<{ requester: { email: string } }> } };
    const map = JSON.parse(read(dir, "worlds/acme-import.identities.json")) as { customers: Array<{ email: string; pseudonym: { email: string } }> };
    const expected = map.customers.find((c) => c.email === "billing.northwind@example.com")!.pseudonym.email;
    expect(built.data.tickets[0].requester.email).toBe(expected);
    expect(read(dir, "built-seed.json")).not.toContain("billing.northwind@example.com");
  }, 120_000);
});

describe("seed import --tickets", () => {
  it("copies in the customers an export names beyond the sample, with their billing, and counts the strangers", async () => {
    const dir = mkdtempSync(join(tmpdir(), "worlds-seed-import-tickets-"));
    mkdirSync(join(dir, "exports"));
    writeFileSync(
      join(dir, "exports", "zendesk.csv"),
      ["Ticket ID,Requester email,Subject", "1,founders.nimbus@example.com,Renewal date?", "2,stranger@nowhere.example,Hi", "3,Founders.Nimbus@example.com,Again"].join("\n"),
    );
    const r = await importInto(dir, ["--sample", "1", "--tickets", "exports/zendesk.csv"]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain("tickets: 2 requester(s) in exports/zendesk.csv, 1 copied in");
    expect(r.out).toContain("stranger@nowhere.example");
    const parsed = parseSeed(JSON.parse(read(dir, "worlds/seeds/acme-import.json")));
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const map = JSON.parse(read(dir, "worlds/acme-import.identities.json")) as { customers: Array<{ id: string; pseudonym: { id: string } }> };
    const nimbus = map.customers.find((c) => c.id === "cus_AcmeNimbus");
    expect(nimbus).toBeDefined();
    expect(parsed.seed.data.subscriptions.some((s) => s.customer === nimbus!.pseudonym.id)).toBe(true);
    expect(parsed.seed.data.invoices.some((i) => i.customer === nimbus!.pseudonym.id)).toBe(true);
    const manifest = JSON.parse(read(dir, "worlds/seeds/acme-import.manifest.json")) as { tickets: unknown };
    expect(manifest.tickets).toEqual({ requesters: 2, copied_in: 1, not_customers: 1 });
    expect(read(dir, "worlds/seeds/acme-import.manifest.json")).not.toContain("stranger@nowhere.example");
  }, 120_000);

  it("without --salt, a key that cannot read the account is told how to go on, and nothing is written", async () => {
    const dir = mkdtempSync(join(tmpdir(), "worlds-seed-import-nosalt-"));
    const x = io(dir);
    const code = await seedImportCommand(x, ["--from-stripe", "--api-key", world.key, "--api-base", world.stripe_api_base, "--out", "worlds/seeds/x.json"]);
    expect(code).toBe(2);
    expect(x.stderr()).toContain("--salt");
    expect(x.stderr()).toContain("nothing written");
  });

  it("a wrong key is a setup failure naming the flag", async () => {
    const dir = mkdtempSync(join(tmpdir(), "worlds-seed-import-badkey-"));
    const x = io(dir);
    const code = await seedImportCommand(x, ["--from-stripe", "--api-key", "sk_test_nope", "--api-base", world.stripe_api_base, "--salt", "whatever phrase", "--out", "worlds/seeds/x.json"]);
    expect(code).toBe(3);
    expect(x.stderr()).toContain("--api-key");
  });
});
