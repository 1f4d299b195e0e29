// Answers are drawn, not checked: the shapes real APIs answer with become a schema the simulator draws from, and
// the draw then holds what the schema says (lists within their bounds, merged required fields, one branch).
import { describe, expect, it } from "vitest";
import { answerSchemaOf } from "./answer-schema";
import { keyedDraw } from "./simulate/draw";
import { makeValue } from "./simulate/value";

const ok = (raw: unknown) => {
  const a = answerSchemaOf(raw);
  if (!a.ok) throw new Error(a.reason);
  return a;
};
const draw = (schema: unknown, key = "k") => makeValue(schema, keyedDraw(key), "result", 1_789_000_000) as Record<string, unknown>;

describe("answer schemas", () => {
  it("merges allOf: properties and required united, in the branches' order", () => {
    const a = ok({ allOf: [{ type: "object", required: ["name"], properties: { name: { type: "string" }, tag: { type: "string" } } }, { type: "object", required: ["id"], properties: { id: { type: "integer" } } }] });
    expect(a.schema).toEqual({ type: "object", required: ["name", "id"], properties: { name: { type: "string" }, tag: { type: "string" }, id: { type: "integer" } } });
    expect(Object.keys(draw(a.schema))).toEqual(["name", "tag", "id"]);
  });

  it("refuses an allOf whose branches ask one property for two types, naming it", () => {
    const a = answerSchemaOf({ allOf: [{ type: "object", properties: { id: { type: "string" } } }, { type: "object", properties: { id: { type: "integer" } } }] });
    expect(a).toEqual({ ok: false, reason: "its answer's allOf at id asks for string in one branch and integer in another" });
  });

  it("answers a oneOf/anyOf with its first object branch, and says so", () => {
    const a = ok({ type: "object", properties: { owner: { anyOf: [{ type: "string", maxLength: 8 }, { type: "object", properties: { id: { type: "string" } } }] } } });
    expect(a.schema!.properties!.owner).toEqual({ type: "object", properties: { id: { type: "string" } } });
    expect(a.notes).toEqual(["oneOf/anyOf at owner: the first object branch is drawn"]);
  });

  it("an object branch that refers back to its own schema gives way to the scalar beside it", () => {
    const a = ok({ type: "object", required: ["charge"], properties: { charge: { anyOf: [{ type: "string", maxLength: 5000 }, { $ref: "#/components/schemas/charge" }] } } });
    expect(a.schema!.properties!.charge).toEqual({ type: "string", maxLength: 5000 });
  });

  it("draws a value for nullable and type [T, null], never null", () => {
    const a = ok({ type: "object", required: ["note", "when"], properties: { note: { type: ["string", "null"] }, when: { type: "string", nullable: true, format: "date" } } });
    const v = draw(a.schema);
    expect(typeof v.note).toBe("string");
    expect(v.when).toMatch(/^\d{4}-\d\d-\d\d$/);
  });

  it("serves a list answer inside {data}, its length within minItems and maxItems", () => {
    const a = ok({ type: "array", minItems: 2, maxItems: 4, items: { type: "object", properties: { id: { type: "integer" } } } });
    expect(a.wrapped).toBe(true);
    for (const key of ["a", "b", "c", "d", "e", "f"]) {
      const list = draw(a.schema, key).data as unknown[];
      expect(list.length).toBeGreaterThanOrEqual(2);
      expect(list.length).toBeLessThanOrEqual(4);
    }
    expect(draw(ok({ type: "array", items: { type: "string" } }).schema).data).toEqual(expect.any(Array));
  });

  it("leaves out an optional recursive field, empties a recursive list, refuses a required recursive field", () => {
    const rec = { $ref: "#/components/schemas/node" };
    const a = ok({ type: "object", required: ["children"], properties: { id: { type: "string" }, parent: rec, children: { type: "array", items: rec } } });
    expect(Object.keys(a.schema!.properties!)).toEqual(["id", "children"]);
    expect(draw(a.schema).children).toEqual([]);
    expect(a.notes).toEqual(["1 optional field that refers back to its own schema left out", "1 list whose items refer back to their own schema (or nest too deep) answered empty"]);
    expect(answerSchemaOf({ type: "object", required: ["parent"], properties: { parent: rec } })).toEqual({ ok: false, reason: "its answer has a recursive reference at parent (#/components/schemas/node)" });
  });

  it("an empty 2xx and no schema at all stay apart", () => {
    expect(ok({ type: "object", properties: {} }).schema).toEqual({ type: "object", properties: {} });
    expect(ok(undefined).schema).toBeUndefined();
  });
});
