// `worlds init --account stripe --tickets <export>`: init imports the account itself, looking every requester of
// the export up in it and copying the customer in beyond the sample (--sample), then imports the rows onto it.
// A world of the twin stands in for the Stripe account, as in seed-import.test.ts.
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runInitCommand } from "../../src/cli/commands/init";
import { startLocalServer, type LocalServer } from "../../src/cli/server/local";
import { parseSeed } from "../../src/core/world/seed/parse";
import type { CliIo } from "../../src/cli/tasks/io";

let server: LocalServer;
let world: { key: string; stripe_api_base: string };

beforeAll(async () => {
  server = await startLocalServer();
  const res = await fetch(`${server.url}/admin/worlds`, { method: "POST", headers: { authorization: `Bearer ${server.token}`, "content-type": "application/json" }, body: JSON.stringify({ seed: "acme-small" }) });
  world = (await res.json()) as typeof world;
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), "worlds-init-stripe-"));
  writeFileSync(join(dir, "tickets.csv"), ["Ticket ID,Requester email,Subject,Description", "1,founders.nimbus@example.com,Renewal date?,When do we renew?", "2,stranger@nowhere.example,Hi,Who are you?"].join("\n"));
  return dir;
}

async function init(dir: string, argv: string[], env: Record<string, string> = {}) {
  let out = "";
  let err = "";
  const io: CliIo = { cwd: dir, env, out: (t) => void (out += t), err: (t) => void (err += t) };
  const code = await runInitCommand(argv, io, false);
  return { code, out, err };
}

const stripe = () => ["--account", "stripe", "--api-key", world.key, "--api-base", world.stripe_api_base, "--salt", "acme test account"];

describe("init --account stripe --tickets", () => {
  it("copies in every customer the export names, beyond a sample of one, then imports their tickets", async () => {
    const dir = project();
    const r = await init(dir, ["--yes", "--no-ci", ...stripe(), "--sample", "1", "--tickets", "tickets.csv"]);
    expect(r.code, r.err + r.out).toBe(0);
    const seed = parseSeed(JSON.parse(readFileSync(join(dir, "worlds", "seeds", "my-account.json"), "utf8")));
    expect(seed.ok).toBe(true);
    if (!seed.ok) return;
    const map = JSON.parse(readFileSync(join(dir, "worlds", "my-account.identities.json"), "utf8")) as { customers: Array<{ id: string; email: string; pseudonym: { id: string; email: string } }> };
    const nimbus = map.customers.find((c) => c.id === "cus_AcmeNimbus")!;
    expect(nimbus).toBeDefined();
    expect(seed.seed.data.subscriptions.some((s) => s.customer === nimbus.pseudonym.id)).toBe(true);
    const tasks = readFileSync(join(dir, "worlds", "tasks.yaml"), "utf8");
    expect(tasks).toContain("seed: seeds/my-account.json");
    expect(tasks).toContain(`requester: ${nimbus.pseudonym.email}`);
    expect(tasks).not.toContain("founders.nimbus@example.com");
    expect(r.out).toContain("1 copied in");
    expect(r.out).toMatch(/stranger@nowhere\.example\): each was looked up in the account and is not a customer there/);
    expect(r.out).not.toContain("raise --sample");
  }, 120_000);

  it("takes the key from STRIPE_API_KEY, and refuses without one, with nothing written", async () => {
    const dir = project();
    const noKey = await init(dir, ["--yes", "--no-ci", "--account", "stripe", "--tickets", "tickets.csv"]);
    expect(noKey.code).toBe(2);
    expect(noKey.err).toContain("pass --api-key K or set STRIPE_API_KEY");
    expect(readdirSync(dir)).toEqual(["tickets.csv"]);
    const fromEnv = await init(dir, ["--yes", "--no-ci", "--account", "stripe", "--api-base", world.stripe_api_base, "--salt", "acme test account", "--tickets", "tickets.csv"], { STRIPE_API_KEY: world.key });
    expect(fromEnv.code, fromEnv.err).toBe(0);
  }, 120_000);

  it("puts everything back when the account cannot be read, and --sample needs an account to import", async () => {
    const dir = project();
    const bad = await init(dir, ["--yes", "--no-ci", "--account", "stripe", "--api-key", "sk_test_nope", "--api-base", world.stripe_api_base, "--salt", "acme test account", "--tickets", "tickets.csv"]);
    expect(bad.code).toBe(3);
    expect(bad.err).toContain("nothing written");
    expect(existsSync(join(dir, "worlds", "seeds", "my-account.json"))).toBe(false);
    expect(existsSync(join(dir, "worlds", "tasks.yaml"))).toBe(false);
    const sample = await init(dir, ["--yes", "--no-ci", "--sample", "5"]);
    expect(sample.code).toBe(2);
    expect(sample.err).toContain("--sample widens the account init imports (--account stripe)");
  }, 120_000);
});
