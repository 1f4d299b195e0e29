// Tool files that must be refused by `worlds tools init` in one line, exit 2, with nothing written, and never a
// crash or a hang: $ref cycles through answers, 10,000 operations, names that collide after renaming, bytes that
// are not UTF-8, a 50 MB file. And the other side of the size rule: a large document whose few chosen operations
// import quickly, with a reference bomb outside the choice never read.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./helpers/cli";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "worlds-tools-bad-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const op = (id: string, answer: unknown = { $ref: "#/components/schemas/Thing" }, method = "get") => ({
  [method]: { operationId: id, parameters: [{ name: "id", in: "path", required: true, schema: { type: "string", maxLength: 8 } }], responses: { "200": { description: "ok", content: { "application/json": { schema: answer } } } } },
});
const doc = (paths: Record<string, unknown>, schemas: Record<string, unknown> = {}) => ({ openapi: "3.0.3", info: { title: "t", version: "1" }, paths, components: { schemas } });

async function initOn(name: string, content: string | Buffer, extra: string[] = []) {
  const sub = mkdtempSync(join(dir, "case-"));
  writeFileSync(join(sub, name), content);
  const res = await runCli(["tools", "init", "--own-file", name, ...extra], { cwd: sub, timeoutMs: 60_000 });
  return { ...res, sub, wrote: existsSync(join(sub, "worlds", "tools.yaml")) };
}

const lastLine = (s: string) => s.trim().split("\n").at(-1) ?? "";

describe("bad tool files: one line each, exit 2, nothing written", () => {
  it("$ref cycles through the answers: each tool refused in its line, then the set", async () => {
    const thing = { type: "object", required: ["id", "next"], properties: { id: { type: "string" }, next: { $ref: "#/components/schemas/Thing" } } };
    const r = await initOn("cycle.json", JSON.stringify(doc({ "/a/{id}": op("getA", undefined, "delete"), "/b/{id}": op("getB", undefined, "delete") }, { Thing: thing })));
    expect(r.code).toBe(2);
    expect(r.wrote).toBe(false);
    expect(r.stderr.trimEnd().split("\n")).toEqual([
      "  refused     getA: its answer has a recursive reference at next (#/components/schemas/Thing)",
      "  refused     getB: its answer has a recursive reference at next (#/components/schemas/Thing)",
      "worlds tools init: cycle.json: the set is refused: only 0 usable tools remain; a set needs at least 2",
    ]);
  });

  it("10,000 operations: one line naming --own-include; four chosen import, a reference bomb outside the choice never read", async () => {
    const paths: Record<string, unknown> = {};
    for (let i = 0; i < 10_000; i++) paths[`/v1/things${i}/{id}`] = { ...op(`GetThing${i}`), ...op(`DeleteThing${i}`, undefined, "delete") };
    paths["/v1/bomb/{id}"] = op("GetBomb", { $ref: "#/components/schemas/B1" });
    // Thing nests as real APIs do; B1 fans out 8 ways over 8 levels: expanded whole it is a reference bomb.
    const schemas: Record<string, unknown> = { Thing: { type: "object", properties: { id: { type: "string" }, a: { $ref: "#/components/schemas/L1" } } } };
    for (let l = 1; l <= 3; l++) schemas[`L${l}`] = { type: "object", properties: Object.fromEntries(Array.from({ length: 4 }, (_, k) => [`f${k}`, l === 3 ? { type: "string" } : { $ref: `#/components/schemas/L${l + 1}` }])) };
    for (let l = 1; l <= 8; l++) schemas[`B${l}`] = { type: "object", properties: Object.fromEntries(Array.from({ length: 8 }, (_, k) => [`f${k}`, l === 8 ? { type: "string" } : { $ref: `#/components/schemas/B${l + 1}` }])) };
    const text = JSON.stringify(doc(paths, schemas));
    const all = await initOn("big.json", text);
    expect(all.code).toBe(2);
    expect(all.wrote).toBe(false);
    expect(all.stderr.trim()).toBe("worlds tools init: big.json: the set is refused: the file holds 20001 tools; worlds simulates at most 256: choose the ones you need with --own-include (an operationId or name glob, tag:NAME, path:/v1/x*, GET/POST...) and --own-exclude");
    const some = await initOn("big.json", text, ["--own-include", "path:/v1/things7/*", "--own-include", "path:/v1/things42/*"]);
    expect(some.code, some.stderr).toBe(0);
    expect(some.stdout).toContain("4 tools: 2 read, 2 write, 0 not known (treated as write), 0 refused");
    expect(some.stdout).toContain("4 of its 20001 tools chosen by --own-include 'path:/v1/things7/*' --own-include 'path:/v1/things42/*'");
    const bomb = await initOn("big.json", text, ["--own-include", "GetBomb", "--own-include", "DeleteThing1"]);
    expect(bomb.code).toBe(2);
    expect(bomb.wrote).toBe(false);
    expect(bomb.stderr.trim()).toMatch(/^worlds tools init: \S*big\.json: the chosen operations' \$refs expand to more than 200000 schema nodes; choose the operations you need with --own-include/);
  });

  it("operationIds that collide after renaming: the second refused in its line", async () => {
    const r = await initOn("clash.json", JSON.stringify(doc({ "/a/{id}": op("get order", { type: "object" }, "delete"), "/b/{id}": op("get_order", { type: "object" }, "delete") })));
    expect(r.code).toBe(2);
    expect(r.wrote).toBe(false);
    expect(r.stderr).toContain("  refused     get_order: its name repeats another tool's (get_order)\n");
    expect(lastLine(r.stderr)).toBe("worlds tools init: clash.json: the set is refused: only 1 usable tool remains; a set needs at least 2");
  });

  it("bytes that are not UTF-8: one line naming the file and the line", async () => {
    const r = await initOn("latin1.json", Buffer.concat([Buffer.from('[{"type": "function",\n "function": {"name": "caf'), Buffer.from([0xe9]), Buffer.from('"}}]\n')]));
    expect(r.code).toBe(2);
    expect(r.wrote).toBe(false);
    expect(r.stderr.trim()).toMatch(/^worlds tools init: \S*latin1\.json:2: the file is not UTF-8 text \(a tool file is JSON or YAML in UTF-8; re-save it in that encoding\)$/);
  });

  it("a 50 MB file: one line, before it is parsed", async () => {
    const r = await initOn("huge.json", Buffer.alloc(50 * 1024 * 1024, 0x20));
    expect(r.code).toBe(2);
    expect(r.wrote).toBe(false);
    expect(r.stderr.trim()).toMatch(/^worlds tools init: \S*huge\.json: the file is 50\.0 MiB; a tool file holds at most 16 MiB/);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });
});
