import { describe, expect, it } from "vitest";
import { checkInvariants, InvalidInvariant, parseInvariant } from "./invariants";
import { world } from "./testkit";

describe("invariants", () => {
  const diff = world()
    .create("subscriptions", { id: "sub_new", customer: "cus_alice", status: "active", items: [] })
    .update("invoices", "in_b2", { status: "void" })
    .update("invoices", "in_c2", { status: "void" })
    .diff();

  it.each([
    ["created.subscriptions==0", 1, false],
    ["deleted.customers==0", 0, true],
    ["updated.invoices <= 2", 2, true],
    ["updated.invoices<2", 2, false],
    ["updated.invoices > 1", 2, true],
    ["updated.invoices>=3", 2, false],
    ["created.subscriptions != 0", 1, true],
    ["changed.invoices==2", 2, true],
    ["changed.subscriptions==0", 1, false],
  ])("%s", (source, actual, ok) => {
    expect(checkInvariants([source], diff)).toEqual([{ world: diff.world, invariant: source.trim(), actual, ok }]);
  });

  it("refuses malformed invariants with a message that shows the form", () => {
    expect(parseInvariant("subscriptions==0")).toMatchObject({ ok: false, message: expect.stringContaining("as in deleted.customers==0") });
    expect(parseInvariant("made.subscriptions==0")).toMatchObject({ ok: false, message: expect.stringContaining("must start with created., updated., deleted. or changed. (got 'made.')") });
    expect(parseInvariant("created.widgets==0")).toMatchObject({ ok: false, message: expect.stringContaining("no collection 'widgets'") });
    expect(parseInvariant("created.subscriptions=0").ok).toBe(false);
    expect(parseInvariant("created.subscriptions==-1").ok).toBe(false);
    expect(() => checkInvariants(["nonsense"], diff)).toThrow(InvalidInvariant);
  });
});
