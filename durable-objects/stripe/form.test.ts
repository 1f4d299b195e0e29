// Parameter decoding edge cases, below the HTTP layer.
import { describe, expect, it } from "vitest";
import { decodeParams, MalformedParams } from "./form";
import { fingerprintOf } from "./idempotency";
import { array, parseArgs, strict } from "./params";
import { z } from "zod";

describe("decodeParams", () => {
  it("nests brackets, decodes + as space, and gives expand[] and expand[0] the same tree", () => {
    const a = decodeParams("", "metadata[order+id]=A%2B1&items[0][price]=p1&items[1][price]=p2&expand[]=customer&expand[]=latest_invoice", null);
    expect(a).toEqual({ metadata: { "order id": "A+1" }, items: { "0": { price: "p1" }, "1": { price: "p2" } }, expand: { "0": "customer", "1": "latest_invoice" } });
    const b = decodeParams("", "expand[0]=customer&expand[1]=latest_invoice", null);
    expect(fingerprintOf({ expand: a.expand })).toBe(fingerprintOf(b));
  });

  it("merges the query string with the body, the body winning", () => {
    expect(decodeParams("limit=3&created[gte]=10", "limit=5&created[lt]=20", "application/x-www-form-urlencoded")).toEqual({ limit: "5", created: { gte: "10", lt: "20" } });
  });

  it("turns JSON scalars into the strings a form would carry (null unsets)", () => {
    expect(decodeParams("", JSON.stringify({ amount: 100, paid: true, description: null, tags: ["a"] }), "application/json")).toEqual({
      amount: "100",
      paid: "true",
      description: "",
      tags: ["a"],
    });
  });

  it("refuses malformed percent-encoding, bad JSON and a key used as both value and hash", () => {
    expect(() => decodeParams("", "a=%zz", null)).toThrow(MalformedParams);
    expect(() => decodeParams("", "{", "application/json")).toThrow(MalformedParams);
    expect(() => decodeParams("", "a=1&a[b]=2", null)).toThrow(/both as a value and as a hash/);
  });

  it("lets a later metadata[k] supersede metadata= (clear then set)", () => {
    expect(decodeParams("", "metadata=&metadata[a]=b", null)).toEqual({ metadata: { a: "b" } });
  });
});

describe("parseArgs arrays", () => {
  it("orders integer-keyed hashes by index and keeps a single string as a one-element array", () => {
    const schema = strict({ ids: array(z.string()).optional() });
    expect(parseArgs(schema, { ids: { "10": "c", "2": "b", "0": "a" } })).toEqual({ ids: ["a", "b", "c"] });
    expect(parseArgs(schema, { ids: "x" })).toEqual({ ids: ["x"] });
  });
});
