// POST /admin/tasks/validate and /admin/tasks/build inside the Workers runtime: the same compiler as the CLI,
// so the same file and seed give the same hashes as the golden the Node build test pins.
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { prettyCanonicalJson, sha256Hex, canonicalJson } from "../../src/core/util/canonical";
import golden from "../fixtures/tasks-good/golden.json";
import seed from "../fixtures/tasks-seed/account.json";
import tasksYaml from "../fixtures/tasks-good/tasks.yaml?raw";
import unknownAction from "../fixtures/tasks-bad/expected-unknown-action.yaml?raw";

const auth = { authorization: "Bearer test-token" };
const call = (path: string, init: RequestInit = {}) => exports.default.fetch(new Request(`http://twin.test${path}`, init));
const postJson = (path: string, body: unknown) => call(path, { method: "POST", headers: { ...auth, "content-type": "application/json" }, body: JSON.stringify(body) });

interface BuildResponse {
  ok: true;
  summary: string;
  hashes: { file: string; base_seed: string; seed: string; rubric: string };
  stored: { rubric: string; seed: string };
  seed: unknown;
  rubric: unknown;
  build: unknown;
}

describe("tasks endpoints", () => {
  it("builds byte-identical outputs to the CLI's and stores the rubric in R2 under its hash", async () => {
    const res = await postJson("/admin/tasks/build", { tasks: tasksYaml, seed, file: "tasks.yaml" });
    expect(res.status).toBe(201);
    const body = (await res.json()) as BuildResponse;
    const g = golden["tasks.yaml"];
    expect(body.hashes).toEqual({ file: g.file, base_seed: g.base_seed, seed: g.seed, rubric: g.rubric });
    expect(await sha256Hex(prettyCanonicalJson(body.build))).toBe(g.build_sha256);
    expect(await sha256Hex(canonicalJson(body.rubric))).toBe(g.rubric);
    expect(body.stored.rubric).toBe(`rubrics/${g.rubric}.json`);
    const stored = await env.ARTIFACTS.get(body.stored.rubric);
    expect(stored).not.toBeNull();
    const text = await stored!.text();
    expect(await sha256Hex(text)).toBe(g.rubric);
    expect(body.summary).toBe("tasks: 12 (11 keyed, 1 policy-only) on tasks-fixture · isolated · 2 invariants · budget $150.00, 3 credits max");
  });

  it("validates a YAML body with the seed named in the query, and refuses what the server cannot read", async () => {
    const ok = await postJson("/admin/tasks/validate", { tasks: tasksYaml, seed });
    expect(ok.status).toBe(200);
    const v = (await ok.json()) as { ok: boolean; tasks: Array<{ label: string; customer: string | null }> };
    expect(v.tasks.map((t) => t.label)[0]).toBe("ZD-1041");

    // The fixture names its seed as a file beside it: the server has no files, and says so on the seed: line.
    const res = await call("/admin/tasks/validate?file=tasks.yaml", { method: "POST", headers: { ...auth, "content-type": "application/yaml" }, body: tasksYaml });
    expect(res.status).toBe(422);
    const err = (await res.json()) as { error: { code: string; issues: Array<{ line: number; column: number; message: string }> } };
    expect(err.error.code).toBe("invalid_tasks_file");
    expect(err.error.issues[0]).toMatchObject({ line: 3, column: 7 });
    expect(err.error.issues[0].message).toContain("the server reads no seed files");

    const named = await call("/admin/tasks/validate?seed=no-such-seed", { method: "POST", headers: { ...auth, "content-type": "application/yaml" }, body: tasksYaml });
    expect(((await named.json()) as { error: { issues: Array<{ message: string }> } }).error.issues[0].message).toContain("the server holds no seed named 'no-such-seed'");
  });

  it("reports grammar problems with file, line, column and task, as the CLI does", async () => {
    const res = await postJson("/admin/tasks/validate", { tasks: unknownAction.replace("../tasks-seed/account.json", "x.json"), seed, file: "expected-unknown-action.yaml" });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { error: { issues: Array<Record<string, unknown>> } };
    expect(body.error.issues).toEqual([
      {
        file: "expected-unknown-action.yaml",
        line: 9,
        column: 15,
        task: "T1",
        path: "tasks[0].expected",
        message: "task T1: expected must be one of refund, credit, void, cancel, cancel at period end, plan change, none, escalate.",
      },
    ]);
  });

  it("refuses binary bodies and bodies over the tasks file limit cleanly", async () => {
    const binary = new Uint8Array(256).map((_, i) => (i * 37) % 256);
    const res = await call("/admin/tasks/validate?seed=acme-small", { method: "POST", headers: { ...auth, "content-type": "application/yaml" }, body: binary });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error: { issues: Array<{ message: string }> } }).error.issues[0].message).toContain("the file is binary");
    const big = "#".repeat(11 * 1024 * 1024);
    const large = await call("/admin/tasks/build?seed=acme-small", { method: "POST", headers: { ...auth, "content-type": "application/yaml" }, body: big });
    expect(large.status).toBe(422);
    expect(((await large.json()) as { error: { issues: Array<{ message: string }> } }).error.issues[0].message).toBe("the file is 11.0 MiB; a tasks file may be at most 10.0 MiB");
  });

  it("needs the server token", async () => {
    expect((await call("/admin/tasks/validate", { method: "POST", body: "version: 1" })).status).toBe(401);
  });
});
