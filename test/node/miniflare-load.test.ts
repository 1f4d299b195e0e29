// src/cli/server/local.ts loads Miniflare with one line changed: its configuration buffer grows by at least its
// own size instead of 4 KB at a time (copying linear instead of quadratic in the Worker bundle's size). The bytes
// it hands the runtime must be exactly what the unchanged Miniflare writes.
import { readFileSync } from "node:fs";
import { createRequire, Module } from "node:module";
import { dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { GROWTH_LINE, loadMiniflare } from "../../src/cli/server/local";

function unchangedMiniflare(): typeof import("miniflare") {
  const path = createRequire(import.meta.url).resolve("miniflare");
  const mod = new Module(path) as Module & { _compile(code: string, filename: string): void };
  mod.filename = path;
  mod.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(dirname(path));
  mod._compile(readFileSync(path, "utf8"), path);
  return mod.exports as typeof import("miniflare");
}

describe("Miniflare as the local server loads it", () => {
  it("the pinned Miniflare has the line that is changed, so the linear growth applies", () => {
    const source = readFileSync(createRequire(import.meta.url).resolve("miniflare"), "utf8");
    expect(source.split(GROWTH_LINE).length).toBe(2);
    expect(loadMiniflare().linearGrowth).toBe(true);
  });

  it("writes the same configuration bytes as the unchanged Miniflare, for a large bundle followed by small services", () => {
    const big = "export default { fetch() { return new Response('x') } };\n// " + "a".repeat(3_000_000);
    const services = [
      { name: "core:user:", worker: { modules: [{ name: "index.js", esModule: big }], compatibilityDate: "2026-04-01" } },
      ...Array.from({ length: 200 }, (_, i) => ({ name: `svc-${i}`, worker: { modules: [{ name: "w.js", esModule: `export default {} // ${"b".repeat(i * 37)}` }], compatibilityDate: "2026-04-01" } })),
    ];
    const config = { services, sockets: [{ name: "entry", address: "127.0.0.1:0", service: { name: "core:user:" }, http: {} }] };
    const patched = loadMiniflare().serializeConfig(config as never);
    const plain = unchangedMiniflare().serializeConfig(config as never);
    expect(patched.length).toBeGreaterThan(3_000_000);
    expect(patched.length).toBe(plain.length);
    expect(Buffer.compare(patched, plain)).toBe(0);
  });
});
