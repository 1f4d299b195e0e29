// Worlds of one account share its seeded base: the account is seeded once per isolate and each world holds only
// its own seeded rows (its tickets) over it. Guarded here: a world reads exactly what one base of all its seed's
// rows would show (objects, order, meta, ids), two worlds on one base never see each other's writes, and neither
// does a world after an isolate restart (bases from R2, the account seeded again from the seed).
import { env, exports } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { BUNDLED_SEEDS } from "../../src/seeds/bundled";
import type { World } from "../../durable-objects/world";
import { Store, type StoredObject } from "../../durable-objects/store/store";
import { forgetCachedBases, rowsOfChunks, SeedBase } from "../../durable-objects/store/base";
import { seedBilling } from "../../durable-objects/stripe/seed";
import { seedHelpdesk } from "../../durable-objects/helpdesk/seed";
import { seedTools } from "../../durable-objects/tools/seed";
import { seedReplay } from "../../durable-objects/replay/seed";
import { KIND_META, seedKind } from "../../durable-objects/surface/kinds";
import { forgetAccounts } from "../../durable-objects/seed/account";
import { forgetSeeds } from "../../durable-objects/seed/cache";
import { parseSeed, seedHash } from "../../src/core/world/seed/parse";
import type { SeedDocument } from "../../src/core/world/seed/schema";
import type { ObjectType } from "../../src/core/world/diff/types";
import { admin, call, json, mockAgent, postRun, replyWith, SELFTEST_TASKS, twinOf, waitForRun } from "./runs-helpers";

let agent: ReturnType<typeof mockAgent> | null = null;
afterEach(() => agent?.restore());

type Seed = { name: string; data: { tickets: Array<Record<string, unknown>> } & Record<string, unknown> } & Record<string, unknown>;
const small = BUNDLED_SEEDS["acme-small"] as Seed;
const library = BUNDLED_SEEDS["acme-prod-library"] as Seed;
/** The account with only these tickets on its desk, as an isolated task's world is seeded. */
const withTickets = (seed: Seed, tickets: Array<Record<string, unknown>>): Seed => ({ ...seed, data: { ...seed.data, tickets } });
const ticket = (seed: Seed, id: number) => seed.data.tickets.find((t) => t.id === id)!;
/** A ticket from someone the desk does not know, with comments: seeding adds the requester as a user. */
const stranger = { id: 9001, subject: "Who am I?", description: "Hello from a new address.", requester: { email: "new.person@example.com", name: "New Person" }, comments: [{ body: "Any news?" }, { id: 777001, body: "Still waiting.", public: false }] };

type World_ = { id: string; key: string };
async function createWorld(seed: Seed): Promise<World_> {
  const res = await call("/admin/worlds", { method: "POST", headers: admin, body: JSON.stringify({ seed }) });
  if (res.status !== 201) throw new Error(`create: ${res.status} ${await res.text()}`);
  return json<World_>(res);
}
const twin = (w: World_) => (path: string, init: RequestInit = {}) => call(path, { ...init, headers: { authorization: `Bearer ${w.key}`, ...(init.headers ?? {}) } });
const form = (body: Record<string, string>): RequestInit => ({ method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(body).toString() });

/** Every collection one base of all the seed's rows holds, and the meta its seeding wrote: the world before sharing. */
async function oneBase(doc: SeedDocument, hash: string): Promise<{ lists: Map<ObjectType, StoredObject[]>; meta: Array<[string, string]> }> {
  return runInDurableObject(env.WORLD.getByName(`w_oracle_${hash.slice(0, 12)}`), (_i: World, state: DurableObjectState) => {
    const store = new Store(state.storage.sql);
    const clock = Math.floor(Date.parse(doc.clock) / 1000);
    const meta: Array<[string, string]> = [["seed_name", doc.name], ["seed_hash", hash], ["clock", doc.clock], ["clock_unix", String(clock)], ["currency", doc.currency], ["stripe_version", doc.stripe_version ?? ""], [KIND_META, seedKind(doc)]];
    for (const [k, v] of meta) store.setMeta(k, v);
    const ctx = { clock, currency: doc.currency };
    const rows = [...seedBilling(doc, ctx), ...seedHelpdesk(doc, ctx, store), ...seedTools(doc, ctx, store), ...seedReplay(doc, store)];
    const base = new SeedBase(store.seedChunks(rows));
    store.setBase(base);
    const lists = new Map(base.types().map((t) => [t, store.list(t, { includeDeleted: true })] as const));
    return { lists, meta: store.allMeta() };
  });
}

async function parsed(seed: Seed): Promise<{ doc: SeedDocument; hash: string }> {
  const p = parseSeed(seed);
  if (!p.ok) throw new Error(JSON.stringify(p.issues));
  return { doc: p.seed, hash: await seedHash(p.seed) };
}

/** Restarts "the isolate" for every world: the caches a fresh isolate would not have, and each world's loaded base. */
async function restartIsolate(...worlds: World_[]): Promise<void> {
  forgetCachedBases();
  forgetAccounts();
  forgetSeeds();
  for (const w of worlds) await runInDurableObject(env.WORLD.getByName(w.id), (instance) => (instance as unknown as { store: { reset(): void } }).store.reset());
}

describe("worlds sharing their account's seeding", () => {
  it.each([
    ["acme-small with one ticket", withTickets(small, [ticket(small, 4101)])],
    ["acme-small with every ticket", small],
    ["acme-small with a stranger's ticket and comments", withTickets(small, [stranger])],
    ["acme-small with no ticket", withTickets(small, [])],
    ["the library account with one ticket", withTickets(library, [library.data.tickets[3]!])],
  ])("read %s exactly as one base of all its rows would (every collection, its order, meta), warm and cold", async (_name, seed) => {
    const { doc, hash } = await parsed(seed);
    const expected = await oneBase(doc, hash);
    const check = async (w: World_) => {
      const stub = env.WORLD.getByName(w.id);
      for (const [type, list] of expected.lists) expect(await stub.objects(type), type).toStrictEqual(list);
      const meta = await runInDurableObject(stub, (instance) => (instance as unknown as { store: Store }).store.allMeta());
      const keys = new Set(expected.meta.map(([k]) => k));
      expect(meta.filter(([k]) => keys.has(k))).toStrictEqual(expected.meta);
      for (const [k] of meta) if (!keys.has(k)) expect(["base_key", "own_rows", "own_key", "objects", "world_id", "key_hash", "scenario", "person"]).toContain(k);
    };
    // Warm: the account seeded by the worlds before; then from snapshot; then a cold isolate reading R2.
    const a = await createWorld(seed);
    await check(a);
    const b = await createWorld(seed);
    await check(b);
    await restartIsolate(a);
    await check(a);
  });

  it("keeps two worlds of one account apart: writes, new objects and ids, before and after an isolate restart", async () => {
    const one = await createWorld(withTickets(small, [ticket(small, 4101)]));
    const two = await createWorld(withTickets(small, [ticket(small, 4103)]));
    const [t1, t2] = [twin(one), twin(two)];
    // Each desk holds its own ticket only.
    const tickets = async (t: ReturnType<typeof twin>) => (await json<{ tickets: Array<{ id: number }> }>(await t("/api/v2/tickets.json"))).tickets.map((x) => x.id);
    expect(await tickets(t1)).toEqual([4101]);
    expect(await tickets(t2)).toEqual([4103]);
    // World one refunds, creates a customer and comments on its ticket; world two sees none of it.
    const refund = await t1("/v1/refunds", form({ charge: "ch_AcmeNorthwindDup", amount: "500" }));
    expect(refund.status).toBe(200);
    const created = await json<{ id: string }>(await t1("/v1/customers", form({ email: "only.one@example.com" })));
    const comment = await t1("/api/v2/tickets/4101.json", { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ ticket: { comment: { body: "Refunded.", public: true }, status: "solved" } }) });
    expect(comment.status).toBe(200);
    const seen = async () => {
      const charge2 = await json<{ amount_refunded: number }>(await t2("/v1/charges/ch_AcmeNorthwindDup"));
      const charge1 = await json<{ amount_refunded: number }>(await t1("/v1/charges/ch_AcmeNorthwindDup"));
      const list2 = await json<{ data: Array<{ id: string }> }>(await t2("/v1/customers?limit=100"));
      const list1 = await json<{ data: Array<{ id: string }> }>(await t1("/v1/customers?limit=100"));
      return { charge1: charge1.amount_refunded, charge2: charge2.amount_refunded, customers1: list1.data.length, customers2: list2.data.length, theirs: (await t2(`/v1/customers/${created.id}`)).status, ticket: (await t2("/api/v2/tickets/4101.json")).status };
    };
    const before = await seen();
    expect(before).toEqual({ charge1: 500, charge2: 0, customers1: 16, customers2: 15, theirs: 404, ticket: 404 });
    // World two's first new customer gets the id its own seed mints, not the one after world one's.
    const mine = await json<{ id: string }>(await t2("/v1/customers", form({ email: "only.two@example.com" })));
    expect(mine.id).not.toBe(created.id);
    await restartIsolate(one, two);
    expect(await seen()).toEqual({ ...before, customers2: 16 });
    expect(await tickets(t1)).toEqual([4101]);
    expect(await tickets(t2)).toEqual([4103]);
    // A world made after the restart reseeds the account from the seed and starts clean.
    const three = await createWorld(withTickets(small, [ticket(small, 4101)]));
    const t3 = twin(three);
    expect((await json<{ amount_refunded: number }>(await t3("/v1/charges/ch_AcmeNorthwindDup"))).amount_refunded).toBe(0);
    expect((await json<{ data: unknown[] }>(await t3("/v1/customers?limit=100"))).data).toHaveLength(15);
    expect((await json<{ ticket: { status: string } }>(await t3("/api/v2/tickets/4101.json"))).ticket.status).toBe("new");
    // Same seed, same writes, same ids as world one's: ids do not depend on what the isolate had cached.
    expect((await t3("/v1/refunds", form({ charge: "ch_AcmeNorthwindDup", amount: "500" }))).status).toBe(200);
    expect((await json<{ id: string }>(await t3("/v1/customers", form({ email: "only.one@example.com" })))).id).toBe(created.id);
    const diff = async (w: World_) => json<{ entries: Array<{ type: string; op: string; id: string }> }>(await call(`/admin/worlds/${w.id}/diff`, { headers: admin }));
    expect((await diff(two)).entries.map((e) => `${e.op} ${e.type} ${e.id}`)).toEqual([`created customers ${mine.id}`]);
  });

  it("stores one base for an account however many of its tickets get a world, and keeps each world's ticket in the world", async () => {
    // An account no other test seeds (bases are stored by content, so acme-small's may be there already).
    const account = { ...small, data: { ...small.data, customers: [...(small.data.customers as unknown[]), { id: "cus_SharedOnce", email: "shared.once@example.com", name: "Shared Once" }] } };
    const bases = async () => (await env.ARTIFACTS.list({ prefix: "bases/" })).objects.length;
    const before = await bases();
    const worlds = [];
    for (const id of [4101, 4102, 4103]) worlds.push(await createWorld(withTickets(account, [ticket(small, id)])));
    expect(await bases()).toBe(before + 1);
    for (const [i, w] of worlds.entries()) {
      const own = await runInDurableObject(env.WORLD.getByName(w.id), (instance) => (instance as unknown as { store: Store }).store.meta("own_rows"));
      const rows = rowsOfChunks(JSON.parse(own!) as string[]);
      expect(rows.filter((r) => r.type === "tickets").map((r) => r.id)).toEqual([String([4101, 4102, 4103][i])]);
      expect(rows.some((r) => r.type === "customers")).toBe(false);
    }
  });

  it("keeps a hosted run's isolated worlds apart: each agent sees its own ticket and none of the other episodes' writes", async () => {
    const seen: Array<{ subject: string; tickets: string[]; markers: number }> = [];
    agent = mockAgent(
      replyWith(async (b) => {
        const desk = await exports.default.fetch(new Request(new URL("/api/v2/tickets.json", b.world.zendesk_url), { headers: { authorization: `Bearer ${b.world.key}` } }));
        const tickets = ((await desk.json()) as { tickets: Array<{ subject: string }> }).tickets.map((t) => t.subject);
        const twin = twinOf(b.world);
        const markers = ((await twin.get("/v1/customers?email=marker%40example.com")).data as unknown[]).length;
        await twin.post("/v1/customers", { email: "marker@example.com" });
        if (b.kind !== "account" || !b.task) throw new Error(`an account episode was expected, not ${b.kind}`);
        seen.push({ subject: b.task.subject, tickets, markers });
        return "Thanks, a colleague will look at this.";
      }),
    );
    const posted = await postRun({ tasks: SELFTEST_TASKS, tasks_file: "selftest.tasks.yaml", runs: 2, concurrency: 1 });
    expect(posted.status).toBe(201);
    const done = await waitForRun(posted.body.run_id!);
    expect(done.status).toBe("done");
    expect(seen).toHaveLength(6);
    for (const s of seen) expect(s).toEqual({ subject: s.subject, tickets: [s.subject], markers: 0 });
    expect(new Set(seen.map((s) => s.subject)).size).toBe(3);
  });
});
