// Bundled references: names to files inside the package, refusals that say what exists, and the fallback of a
// checkout-style path to the package's own copy only when the working directory lacks the file.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../paths";
import { resolveInputs } from "./flags";
import { bundledNames, bundledPath, resolveCommand, resolveRef } from "./resolve";

const root = packageRoot();
const elsewhere = () => mkdtempSync(join(tmpdir(), "worlds-bundled-"));

describe("kind:name", () => {
  it("names a pack, a seed, a rubric, a scenario and an example by their files in the package", () => {
    const cwd = elsewhere();
    expect(resolveRef("pack:refunds", cwd)).toMatchObject({ ok: true, path: join(root, "packs", "refunds.yaml"), name: "refunds", kind: "pack" });
    expect(resolveRef("seed:acme-small", cwd)).toMatchObject({ ok: true, path: join(root, "seeds", "acme-small.json"), name: "acme-small" });
    expect(resolveRef("rubric:acme-prod-library", cwd)).toMatchObject({ ok: true, path: join(root, "rubrics", "acme-prod-library.json") });
    expect(resolveRef("scenario:slow-api.json", cwd)).toMatchObject({ ok: true, path: join(root, "scenarios", "slow-api.json"), name: "slow-api" });
    const careful = resolveRef("example:agents/careful.mjs", cwd);
    expect(careful).toMatchObject({ ok: true, path: join(root, "examples", "agents", "careful.mjs") });
    expect(careful.ok && careful.note).toBe(`example:agents/careful.mjs is ${join(root, "examples", "agents", "careful.mjs")}`);
  });

  it("an unknown name is refused with the names that exist", () => {
    const r = resolveRef("pack:refund", elsewhere());
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toContain(`no starter pack named 'refund'; it ships ${bundledNames("pack").join(", ")}`);
    expect(bundledNames("pack")).toEqual(["cancellations", "credits", "invoices", "plan-changes", "refunds"]);
  });

  it("a name cannot climb out of its folder", () => {
    for (const ref of ["example:../package.json", "example:agents/../../package.json", "pack:../seeds/acme-small", "seed:a/b", "family:x/y"]) {
      const r = resolveRef(ref, elsewhere());
      expect(r.ok, ref).toBe(false);
    }
    expect(bundledPath("example", "agents").ok).toBe(false); // a folder is not a file
  });

  it("a name of the wrong kind for the flag is refused; a word before a colon that is no kind is a path", () => {
    const r = resolveRef("seed:acme-small", elsewhere(), ["pack", "example"]);
    expect(!r.ok && r.message).toContain("a seed cannot be used here (expected pack:NAME or example:NAME, or a path)");
    const cwd = elsewhere();
    expect(resolveRef("c:tasks.yaml", cwd)).toEqual({ ok: true, path: join(cwd, "c:tasks.yaml"), name: null, kind: null, note: null });
  });
});

describe("a checkout-style path", () => {
  it("falls back to the package's copy, said in words, when the working directory lacks it", () => {
    const cwd = elsewhere();
    const r = resolveRef("packs/credits.yaml", cwd);
    expect(r).toMatchObject({ ok: true, path: join(root, "packs", "credits.yaml"), note: `packs/credits.yaml is not in ${cwd}; using the copy bundled with worlds, ${join(root, "packs", "credits.yaml")}` });
  });

  it("the user's own file wins, and a path outside the data folders never falls back", () => {
    const cwd = elsewhere();
    mkdirSync(join(cwd, "packs"));
    writeFileSync(join(cwd, "packs", "credits.yaml"), "mine");
    expect(resolveRef("packs/credits.yaml", cwd)).toEqual({ ok: true, path: join(cwd, "packs", "credits.yaml"), name: null, kind: null, note: null });
    expect(resolveRef("docs/init.md", cwd)).toMatchObject({ ok: true, path: join(cwd, "docs", "init.md"), note: null });
    expect(resolveRef("packs/../package.json", cwd)).toMatchObject({ path: join(cwd, "package.json"), note: null });
  });
});

describe("the agent command", () => {
  it("resolves example: arguments and missing examples/ paths, leaving every other argument as typed", () => {
    const cwd = elsewhere();
    const r = resolveCommand(["node", "example:agents/careful.mjs", "examples/agents/reckless.mjs", "--flag", "pack:refunds"], cwd);
    expect(r).toMatchObject({ ok: true, argv: ["node", join(root, "examples", "agents", "careful.mjs"), join(root, "examples", "agents", "reckless.mjs"), "--flag", "pack:refunds"] });
    expect(r.ok && r.notes).toHaveLength(2);
    expect(resolveCommand(["node", "example:agents/nope.mjs"], cwd).ok).toBe(false);
  });
});

describe("a run's flags", () => {
  it("replaces only what was a bundled reference; a library name stays; a scenario name goes to the server as its name", () => {
    const cwd = elsewhere();
    const r = resolveInputs({ tasks: "pack:invoices", seed: "acme-small", scenario: "scenario:slow-api", policy: "mine.md" }, ["node", "agent.mjs"], cwd);
    expect(r).toMatchObject({ ok: true, flags: { tasks: join(root, "packs", "invoices.yaml"), seed: "acme-small", scenario: "slow-api", policy: "mine.md" }, command: ["node", "agent.mjs"] });
    expect(r.ok && r.notes).toEqual([`--tasks pack:invoices is ${join(root, "packs", "invoices.yaml")}`, `--scenario scenario:slow-api is ${join(root, "scenarios", "slow-api.json")}`]);
    const bad = resolveInputs({ rubric: "pack:refunds" }, null, cwd);
    expect(!bad.ok && bad.message).toMatch(/^--rubric pack:refunds: a starter pack cannot be used here/);
  });
});
