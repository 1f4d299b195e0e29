// The person surface and the episode API refuse hostile bodies with a clear error before anything is read or
// changed: prototype keys, nesting past the bound, bodies past the size limit, unknown fields.
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

const admin = { authorization: "Bearer test-token", "content-type": "application/json" };
const call = (path: string, init: RequestInit = {}) => exports.default.fetch(new Request(`http://twin.test${path}`, init));

async function world(): Promise<{ id: string; key: string }> {
  const res = await call("/admin/worlds", { method: "POST", headers: admin, body: JSON.stringify({ seed: "acme-small" }) });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; key: string };
}

const clean = () => expect(({} as Record<string, unknown>).polluted).toBeUndefined();
const deep = (n: number) => `${'{"a":'.repeat(n)}1${"}".repeat(n)}`;

describe("hostile bodies on the person surface", () => {
  for (const [what, body, status, code] of [
    ["__proto__", '{"said":"hi","__proto__":{"polluted":true}}', 400, "invalid_request"],
    ["nested 10,000 levels", `{"said":"hi","x":${deep(10_000)}}`, 400, "invalid_request"],
    ["an unknown field", '{"said":"hi","confirm":true}', 400, "invalid_request"],
    ["over the size limit", JSON.stringify({ said: "x".repeat(1024 * 1024 + 1) }), 413, "request_too_large"],
  ] as const) {
    it(`${what}: ${status} ${code}, and the trace stays empty`, async () => {
      const w = await world();
      const res = await call("/person/v1/respond", { method: "POST", headers: { authorization: `Bearer ${w.key}`, "content-type": "application/json" }, body });
      expect(res.status).toBe(status);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe(code);
      clean();
      expect((await (await call(`/admin/worlds/${w.id}/trace`, { headers: admin })).text()).trim()).toBe("");
    });
  }
});

describe("hostile bodies on the episode API", () => {
  it("refuses __proto__, deep nesting and unknown fields on start with 400, naming the path", async () => {
    for (const body of ['{"task":{"slug":"x"},"__proto__":{"polluted":true}}', `{"task":${deep(10_000)}}`, '{"task":{},"colour":"blue"}']) {
      const res = await call("/admin/episodes", { method: "POST", headers: admin, body });
      expect(res.status).toBe(400);
      clean();
    }
  });

  it("refuses a grade body over the limit with 413 rather than reading it as empty", async () => {
    const res = await call("/admin/episodes/ep_AAAAAAAAAAAAAAAA/grade", { method: "POST", headers: admin, body: "x".repeat(32 * 1024 * 1024 + 1) });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("body_too_large");
  });
});
