// Reading a team's tool file: the three formats, the effects they state and the team declares, every refusal
// rule in one line, and the set-level rules.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { countsLine, detectFormat, fileLine, importToolSet, ToolFileError } from "./toolset";

const fixture = (name: string) => readFileSync(new URL(`../../../../test/fixtures/tools/${name}`, import.meta.url), "utf8");
const fn = (name: string, parameters: unknown, description = "Does a thing.") => ({ type: "function", function: { name, description, parameters } });
const obj = (properties: Record<string, unknown>, required: string[] = []) => ({ type: "object", properties, required });

describe("the spec's five-tool OpenAI example", () => {
  it("reads 3 read, 0 write, 2 not known, 0 refused with the file's digest", async () => {
    const set = await importToolSet(fixture("orders.openai.json"), { name: "acme", read: ["get_order", "search_orders", "list_channels"] });
    expect(countsLine(set)).toBe("5 tools: 3 read, 0 write, 2 not known (treated as write), 0 refused");
    expect(fileLine(set)).toBe("file: an OpenAI tools file, sha256 bf34e029e3fa609162c90e8709251c32db608d8aa0afd1f23432d500bd007ece");
    expect(set.setRefusal).toBeNull();
    expect(set.tools.filter((t) => t.target).map((t) => t.name)).toEqual(["refund_order", "notify_customer"]);
    expect(set.tools.find((t) => t.name === "search_orders")?.checkable).toEqual([]);
    expect(set.tools.find((t) => t.name === "refund_order")?.checkable).toEqual(["order_id", "amount", "reason"]);
  });

  it("without declarations every OpenAI tool is not known", async () => {
    const set = await importToolSet(fixture("orders.openai.json"), { name: "acme" });
    expect(countsLine(set)).toBe("5 tools: 0 read, 0 write, 5 not known (treated as write), 0 refused");
  });

  it("refuses a declaration that names no tool, and one both read and write", async () => {
    await expect(importToolSet(fixture("orders.openai.json"), { name: "acme", read: ["get_ordr"] })).rejects.toThrow(/declared effects name no tool in the file: get_ordr/);
    await expect(importToolSet(fixture("orders.openai.json"), { name: "acme", read: ["get_order"], write: ["get_order"] })).rejects.toThrow(/both read and write/);
  });
});

describe("formats", () => {
  it("reads Responses tools and a {tools: [...]} wrapper", async () => {
    const text = JSON.stringify({ tools: [{ type: "function", name: "a", parameters: obj({ id: { type: "integer" } }) }, { type: "function", name: "b", parameters: obj({ n: { type: "integer" } }) }] });
    const set = await importToolSet(text, { name: "x" });
    expect(set.format).toBe("openai");
    expect(set.tools.map((t) => t.name)).toEqual(["a", "b"]);
  });

  it("reads an MCP tools/list result bare, in its envelope and as pages, with effects from annotations", async () => {
    const tools = [
      { name: "read_it", inputSchema: obj({ id: { type: "integer" } }), annotations: { readOnlyHint: true } },
      { name: "write_it", inputSchema: obj({ id: { type: "integer" } }), annotations: { destructiveHint: true } },
      { name: "who_knows", inputSchema: obj({ id: { type: "integer" } }) },
    ];
    for (const doc of [{ tools }, { jsonrpc: "2.0", id: 1, result: { tools } }, [{ tools: tools.slice(0, 1), nextCursor: "2" }, { jsonrpc: "2.0", id: 2, result: { tools: tools.slice(1) } }]]) {
      const set = await importToolSet(JSON.stringify(doc), { name: "m" });
      expect(set.format).toBe("mcp");
      expect(countsLine(set)).toBe("3 tools: 1 read, 1 write, 1 not known (treated as write), 0 refused");
    }
  });

  it("refuses a file that is none of the three, naming the three", () => {
    expect(() => detectFormat({ hello: "world" })).toThrow(/an OpenAI tools file, an MCP tool list, an OpenAPI document/);
  });
});

describe("refusal rules, one line per tool", () => {
  const refusals = async (tools: unknown[]) => {
    const set = await importToolSet(JSON.stringify([...tools, fn("ok_one", obj({ id: { type: "integer" } })), fn("ok_two", obj({ id: { type: "integer" } }))]), { name: "r" });
    return set.refused;
  };

  it("renames names providers refuse, keeping the original as the title, and refuses repeats", async () => {
    const long = `x${"y".repeat(80)}`;
    const set = await importToolSet(JSON.stringify([fn("get.order", obj({})), fn(long, obj({ a: { type: "integer" } })), fn("get_order", obj({}))]), { name: "r" });
    expect(set.tools[0]).toMatchObject({ name: "get_order", title: "get.order" });
    expect(set.tools[1].name).toHaveLength(64);
    expect(set.tools[1].name).toMatch(/^xy+_[0-9a-f]{8}$/);
    expect(set.refused).toEqual([{ name: "get_order", reason: "its name repeats another tool's (get_order)" }]);
  });

  it.each([
    ["anyOf", obj({ a: { anyOf: [{ type: "string" }, { type: "integer" }] } }), /uses anyOf \(at a\)/],
    ["uniqueItems", obj({ a: { type: "array", items: { type: "string" }, uniqueItems: true } }), /uses uniqueItems/],
    ["schema-valued additionalProperties", { type: "object", additionalProperties: { type: "string" } }, /schema-valued additionalProperties/],
    ["nesting deeper than three", obj({ a: obj({ b: obj({ c: obj({ d: { type: "string" } }) }) }) }), /nests deeper than 3 levels \(at a.b.c\)/],
    ["nesting deeper than three through lists", obj({ a: { type: "array", items: obj({ b: obj({ c: { type: "array", items: obj({}) } }) }) } }), /nests deeper than 3 levels \(at a\[\].b.c\)/],
    ["a binary string", obj({ f: { type: "string", format: "binary" } }), /takes a file or binary data/],
    ["not an object schema", { type: "array", items: { type: "string" } }, /not a JSON object schema/],
  ])("%s", async (_label, parameters, reason) => {
    const refused = await refusals([fn("bad", parameters)]);
    expect(refused).toHaveLength(1);
    expect(refused[0].name).toBe("bad");
    expect(refused[0].reason).toMatch(reason);
  });

  it("three levels of nesting are allowed", async () => {
    expect(await refusals([fn("deep_ok", obj({ a: obj({ b: obj({ c: { type: "string" } }) }) }))])).toEqual([]);
  });

  it("refuses the whole set with fewer than 2 usable tools, more than 256, or no target", async () => {
    const one = await importToolSet(JSON.stringify([fn("only", obj({ id: { type: "integer" } })), fn("bad", { type: "array" })]), { name: "s" });
    expect(one.setRefusal).toMatch(/only 1 usable tool remains/);
    const many = await importToolSet(JSON.stringify(Array.from({ length: 257 }, (_, i) => fn(`t${i}`, obj({ id: { type: "integer" } })))), { name: "s" });
    expect(many.setRefusal).toMatch(/257 tools; worlds simulates at most 256/);
    const reads = await importToolSet(JSON.stringify([fn("a", obj({ q: { type: "string" } })), fn("b", obj({ q: { type: "string" } }))]), { name: "s" });
    expect(reads.setRefusal).toMatch(/no usable tool can be a task's target/);
  });

  it("refuses a hostile file: prototype keys and deep nesting", async () => {
    await expect(importToolSet('[{"type":"function","function":{"name":"a","__proto__":{}}}]', { name: "h" })).rejects.toThrow(ToolFileError);
    await expect(importToolSet(`${"[".repeat(500)}${"]".repeat(500)}`, { name: "h" })).rejects.toThrow(/nested deeper/);
  });
});

describe("OpenAPI documents", () => {
  it("reads a 3.0 YAML document: parameters and body merged, refs resolved, effects by method, each refusal named", async () => {
    const set = await importToolSet(fixture("shop.openapi.yaml"), { name: "shop" });
    expect(set.format).toBe("openapi");
    expect(countsLine(set)).toBe("7 tools: 3 read, 2 write, 0 not known (treated as write), 2 refused");
    expect(set.refused).toEqual([
      { name: "replaceNote", reason: "the path parameter 'order_id' has the same name as a field of the request body" },
      { name: "uploadReceipt", reason: "it takes a file or a stream (multipart/form-data body)" },
    ]);
    // An answer is drawn, not checked: the optional field that refers back to its own schema is left out.
    const category = set.tools.find((t) => t.name === "getCategory")!;
    expect(Object.keys(category.outputSchema!.properties!)).toEqual(["id", "name"]);
    expect(set.answerNotes).toEqual([{ name: "getCategory", note: "1 optional field that refers back to its own schema left out" }]);
    expect(set.effectRules.find((r) => r.name === "getOrder")).toEqual({ name: "getOrder", note: "HTTP method GET" });
    const refund = set.tools.find((t) => t.name === "refundOrder")!;
    expect(refund.inputSchema).toEqual({
      type: "object",
      properties: {
        order_id: { type: "string", minLength: 6, maxLength: 6 },
        amount: { type: "number", exclusiveMinimum: 0 },
        reason: { type: ["string", "null"], enum: ["damaged", "late", "other"] },
      },
      required: ["order_id", "amount"],
      additionalProperties: false,
    });
    expect(refund.outputSchema).toEqual({ type: "object", properties: { refund_id: { type: "string" }, status: { type: "string", enum: ["pending", "succeeded"] } } });
    const order = set.tools.find((t) => t.name === "getOrder")!;
    expect(order.effect).toBe("read");
    expect(order.inputSchema.properties).toEqual({ order_id: { type: "string", minLength: 6, maxLength: 6, description: "The order's id, such as A-3317." } });
    expect(Object.keys((order.outputSchema!.properties ?? {}) as object)).toEqual(["id", "status", "total", "note"]);
    const list = set.tools.find((t) => t.name === "listOrders")!;
    expect(list.outputSchema).toMatchObject({ type: "object", required: ["data"], properties: { data: { type: "array" } } });
    expect(set.tools.find((t) => t.name === "delete__categories__id_")).toMatchObject({ title: "delete_/categories/{id}", effect: "write" });
  });

  it("refuses an OpenAPI parameter whose name a body field repeats", async () => {
    const set = await importToolSet(fixture("shop.openapi.yaml"), { name: "shop" });
    // replaceNote's path parameter order_id is also a body field: the one clash in the file.
    expect(set.tools.some((t) => t.name === "replaceNote")).toBe(false);
  });
});

describe("a real MCP server's tools/list (the reference memory server's, captured over stdio)", () => {
  it("reads every tool with the server's own annotations as effects", async () => {
    const set = await importToolSet(fixture("memory.mcp.json"), { name: "memory" });
    expect(set.format).toBe("mcp");
    expect(countsLine(set)).toBe("9 tools: 3 read, 6 write, 0 not known (treated as write), 0 refused");
    expect(set.tools.filter((t) => t.effect === "read").map((t) => t.name)).toEqual(["read_graph", "search_nodes", "open_nodes"]);
    expect(set.setRefusal).toBeNull();
  });
});
