// The Node-side entry points of user-chosen keys and nesting (files, exports, payloads, flags): each hostile input
// gets a clear refusal naming where it is, and nothing leaks into Object.prototype.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { FlagError, parseArgs, type FlagDefs } from "../../src/cli/flags";
import { ExportError, readExport } from "../../src/cli/tasks/import/rows";
import { parseSeed } from "../../src/core/world/seed/parse";
import { parseYamlSource } from "../../src/core/kinds/account/tasks/source";
import { canonicalJson } from "../../src/core/util/canonical";
import { dict, findTreeProblem } from "../../src/core/util/safe-tree";
import { parseDelivery } from "../../src/webhooks/normalize";

const clean = () => expect(({} as Record<string, unknown>).polluted).toBeUndefined();

describe("findTreeProblem", () => {
  it("finds forbidden keys anywhere, with the path, and ignores them as values", () => {
    expect(findTreeProblem({ a: [{ b: { constructor: 1 } }] }, 10)).toEqual({ kind: "key", path: ["a", 0, "b", "constructor"], key: "constructor" });
    expect(findTreeProblem(JSON.parse('{"x":{"__proto__":{}}}'), 10)).toEqual({ kind: "key", path: ["x", "__proto__"], key: "__proto__" });
    expect(findTreeProblem({ note: "__proto__", list: ["prototype"] }, 10)).toBeNull();
  });

  it("bounds depth without recursion: a 1,000,000-level array is measured, not walked into the stack", () => {
    const deep = JSON.parse(`${"[".repeat(1_000_000)}${"]".repeat(1_000_000)}`) as unknown;
    const p = findTreeProblem(deep, 64);
    expect(p?.kind).toBe("depth");
    expect(p?.path).toHaveLength(64);
    expect(findTreeProblem({ a: { b: {} } }, 3)).toBeNull();
    expect(findTreeProblem({ a: { b: { c: {} } } }, 3)?.kind).toBe("depth");
  });

  it("dict() has no prototype, so a key named __proto__ is an own key", () => {
    const d = dict<string>();
    d["__proto__"] = "x";
    expect(Object.keys(d)).toEqual(["__proto__"]);
    clean();
  });
});

describe("files and payloads", () => {
  it("a tasks file with a __proto__ key is refused at its line", () => {
    const r = parseYamlSource("version: 1\nseed: acme-small\ntasks:\n  - id: A\n    __proto__:\n      polluted: yes\n", "tasks.yaml");
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toMatchObject({ file: "tasks.yaml", line: 5 });
    expect(r.problems[0].message).toMatch(/'__proto__' is not allowed as a key/);
    clean();
  });

  it("a tasks file nested thousands of levels deep is one problem, not a crash", () => {
    const r = parseYamlSource(`version: 1\ntasks: ${"[".repeat(5000)}${"]".repeat(5000)}\n`, "deep.yaml");
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems.length).toBeGreaterThanOrEqual(1);
    expect(r.problems[0].message).toMatch(/nest/);
    const moderate = parseYamlSource(`version: 1\ntasks: ${"[".repeat(100)}${"]".repeat(100)}\n`, "deep.yaml");
    expect(moderate.ok).toBe(false);
    if (!moderate.ok) expect(moderate.problems[0].message).toMatch(/nested deeper than 64 levels/);
  });

  it("a seed document with a constructor key is refused with its path", () => {
    const r = parseSeed({ version: 1, name: "x", clock: "2026-09-15T12:00:00Z", currency: "usd", data: { customers: [{ id: "cus_1", metadata: { constructor: "x" } }] } });
    expect(r).toEqual({ ok: false, issues: [{ path: "data.customers[0].metadata.constructor", message: expect.stringMatching(/'constructor' is not allowed/) }] });
  });

  it("an export whose CSV header or JSON rows name a prototype key is refused, naming the column or row", () => {
    expect(() => readExport("t.csv", "subject,__proto__\nhi,x\n")).toThrow(ExportError);
    expect(() => readExport("t.csv", "subject,__proto__\nhi,x\n")).toThrow(/column 2 is named '__proto__'/);
    expect(() => readExport("t.json", '[{"subject":"a"},{"subject":"b","__proto__":{"polluted":1}}]')).toThrow(/item 2: '__proto__' is not allowed/);
    const rows = readExport("t.csv", "subject,toString\nhi,x\n");
    expect(rows.records[0].toString).toBe("x");
    clean();
  });

  it("a webhook payload with a prototype key or deep nesting is invalid, never a ticket", () => {
    const headers = () => null;
    const polluted = parseDelivery("zendesk", '{"ticket_id":"1","subject":"s","description":"d","requester":"a@b.example","__proto__":{"polluted":1}}', headers);
    expect(polluted).toMatchObject({ kind: "invalid", reason: expect.stringMatching(/__proto__/) });
    const deep = parseDelivery("zendesk", `{"ticket_id":"1","x":${'{"a":'.repeat(5000)}1${"}".repeat(5001)}`, headers);
    expect(deep).toMatchObject({ kind: "invalid", reason: expect.stringMatching(/nested deeper/) });
    clean();
  });

  it("canonical JSON keeps a __proto__ key as data and refuses runaway depth instead of overflowing", () => {
    expect(canonicalJson(JSON.parse('{"b":1,"__proto__":{"x":1}}'))).toBe('{"__proto__":{"x":1},"b":1}');
    let deep: unknown = 1;
    for (let i = 0; i < 10_000; i++) deep = { a: deep };
    expect(() => canonicalJson(deep)).toThrow(/nested more than 512 levels/);
  });
});

describe("CLI flags", () => {
  const defs: FlagDefs = { runs: { kind: "value", help: "" } };
  it("--constructor and --__proto__ are unknown options, not inherited ones", () => {
    for (const name of ["constructor", "__proto__", "toString"]) {
      expect(() => parseArgs("passk", [`--${name}`, "x"], defs, z.strictObject({ runs: z.string().optional() }))).toThrow(FlagError);
    }
  });
});
