import { describe, expect, it } from "vitest";
import { BoundedLru } from "./lru";

describe("BoundedLru", () => {
  it("drops the least recently used entry past its entry bound", () => {
    const lru = new BoundedLru<string, number>(2, 100);
    lru.set("a", 1);
    lru.set("b", 2);
    expect(lru.get("a")).toBe(1);
    lru.set("c", 3);
    expect(lru.get("b")).toBeUndefined();
    expect([lru.get("a"), lru.get("c")]).toEqual([1, 3]);
  });

  it("keeps the total weight within its budget and refuses a value heavier than all of it", () => {
    const lru = new BoundedLru<string, string>(10, 10);
    lru.set("a", "aaaaaa", 6);
    lru.set("b", "bbbbbb", 6);
    expect(lru.get("a")).toBeUndefined();
    expect(lru.get("b")).toBe("bbbbbb");
    lru.set("huge", "x", 11);
    expect(lru.get("huge")).toBeUndefined();
    expect(lru.get("b")).toBe("bbbbbb");
  });

  it("replacing a key releases its old weight", () => {
    const lru = new BoundedLru<string, number>(10, 10);
    lru.set("a", 1, 8);
    lru.set("a", 2, 8);
    lru.set("b", 3, 2);
    expect([lru.get("a"), lru.get("b"), lru.size]).toEqual([2, 3, 2]);
  });

  it("without a weight budget, only the entry bound applies", () => {
    const lru = new BoundedLru<string, number>(2);
    lru.set("a", 1);
    lru.set("b", 2);
    lru.set("c", 3);
    expect([lru.get("a"), lru.get("b"), lru.get("c")]).toEqual([undefined, 2, 3]);
  });
});
