// Stripe-shaped answers: every object's fields name other objects as `anyOf: [id string, $ref]` (plus the same
// reference again under x-expansionResources), and all the objects refer to each other. Expanded in full, one
// read's answer is the whole API many times over; the API itself answers ids unless asked to expand.
import { describe, expect, it } from "vitest";
import { readOpenApi } from "./openapi";

function stripeShaped(objects: number, fields: number) {
  const schemas: Record<string, unknown> = {};
  for (let i = 0; i < objects; i++) {
    const properties: Record<string, unknown> = { id: { type: "string", maxLength: 5000 }, object: { type: "string", enum: [`thing_${i}`] } };
    for (let f = 0; f < fields; f++) {
      const ref = { $ref: `#/components/schemas/thing_${(i + f + 1) % objects}` };
      properties[`link_${f}`] = { anyOf: [{ type: "string", maxLength: 5000 }, ref], nullable: true, "x-expansionResources": { oneOf: [ref] } };
    }
    schemas[`thing_${i}`] = { type: "object", properties, required: Object.keys(properties) };
  }
  return {
    openapi: "3.0.0",
    info: { title: "expandable", version: "1" },
    paths: {
      "/v1/things/{thing}": {
        get: {
          operationId: "GetThing",
          parameters: [{ name: "thing", in: "path", required: true, schema: { type: "string", maxLength: 5000 } }],
          responses: { "200": { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/thing_0" } } } } },
        },
      },
    },
    components: { schemas },
  };
}

describe("OpenAPI answers with expandable fields", () => {
  it("keeps an expandable field's references unexpanded, so a web of 40 objects with 12 links each imports", () => {
    const tools = readOpenApi(stripeShaped(40, 12), { include: ["GetThing"], exclude: [] });
    expect(tools).toHaveLength(1);
    const answer = tools[0]!.outputSchema as { properties: Record<string, { anyOf: Array<Record<string, unknown>> }> };
    const link = answer.properties.link_0!;
    // The id branch as written; the object branch left as a reference marked cut, so the id is what is drawn.
    expect(link.anyOf[0]).toMatchObject({ type: "string" });
    expect(link.anyOf[1]).toMatchObject({ $ref: "#/components/schemas/thing_1" });
    expect(JSON.stringify(tools).length).toBeLessThan(20_000);
    // Vendor extensions are not schemas and are not carried.
    expect(JSON.stringify(tools)).not.toContain("x-expansionResources");
  });
});
