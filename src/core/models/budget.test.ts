import { describe, expect, it } from "vitest";
import { MemoryBudget } from "./budget";

describe("MemoryBudget", () => {
  it("reserves each call's worst case unless told the most one call reserves; settles on the real cost", async () => {
    const worst = 8_000;
    const plain = new MemoryBudget(6_000);
    expect(await plain.reserve(worst)).toBeNull();

    const estimated = new MemoryBudget(6_000, 2_000);
    const a = await estimated.reserve(worst);
    const b = await estimated.reserve(worst);
    const c = await estimated.reserve(worst);
    expect([a, b, c].map((r) => r?.micros)).toEqual([2_000, 2_000, 2_000]);
    expect(await estimated.reserve(worst)).toBeNull();
    await estimated.settle(a!, 900);
    expect(await estimated.spentMicros()).toBe(900);
    // 1,100 left: not another ceiling, but a call whose worst case is smaller than it reserves only that.
    expect(await estimated.reserve(worst)).toBeNull();
    expect((await estimated.reserve(1_000))?.micros).toBe(1_000);
    // What a settled call did not use is free again: one more call fits.
    await estimated.settle(b!, 0);
    expect((await estimated.reserve(worst))?.micros).toBe(2_000);
  });
});
