// The starter library is generated: the committed files must be the generator's bytes, and the check CI runs
// (npm run check:generated) must catch a hand edit, a stray pack and a key that no longer matches its pack.
import { spawnSync } from "node:child_process";
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generatedFiles } from "../../scripts/seeds-gen/main.mjs";

const root = join(import.meta.dirname, "..", "..");
const script = join(root, "scripts", "check-generated.mjs");
const temps: string[] = [];

afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

/** A copy of the generated tree (seeds, rubrics, packs) to break on purpose. */
function copyTree(): string {
  const dir = mkdtempSync(join(tmpdir(), "worlds-lib-"));
  temps.push(dir);
  for (const rel of ["seeds/acme-prod-library.json", "seeds/acme-policy.md", "rubrics/acme-prod-library.json", "packs"]) cpSync(join(root, rel), join(dir, rel), { recursive: true });
  return dir;
}

function check(dir: string) {
  const r = spawnSync(process.execPath, [script, "--root", dir], { encoding: "utf8" });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

describe("generated starter library", () => {
  it("regenerates byte for byte what is committed", () => {
    const files = generatedFiles();
    expect(Object.keys(files).sort()).toEqual([
      "packs/README.md",
      "packs/cancellations.yaml",
      "packs/credits.yaml",
      "packs/invoices.yaml",
      "packs/plan-changes.yaml",
      "packs/refunds.yaml",
      "rubrics/acme-prod-library.json",
      "seeds/acme-policy.md",
      "seeds/acme-prod-library.json",
    ]);
    for (const [rel, text] of Object.entries(files)) expect(readFileSync(join(root, rel), "utf8") === text, rel).toBe(true);
  });

  it("is deterministic: two generations give the same bytes", () => {
    expect(generatedFiles()).toEqual(generatedFiles());
  });

  it("passes check:generated on the checkout", () => {
    const r = check(root);
    expect(r.out).toContain("5 packs");
    expect(r.status).toBe(0);
  }, 180_000);

  it("fails on a hand edit and on a pack the generator does not write", () => {
    const dir = copyTree();
    appendFileSync(join(dir, "seeds/acme-policy.md"), "\nRefunds up to 90 days.\n");
    writeFileSync(join(dir, "packs/extra.yaml"), "version: 1\n");
    const r = check(dir);
    expect(r.status).toBe(1);
    expect(r.out).toContain("seeds/acme-policy.md: differs from the generator's output");
    expect(r.out).toContain("packs/extra.yaml: not written by the generator");
  }, 180_000);

  it("fails when a pack no longer compiles to the library's key, naming the field", () => {
    const dir = copyTree();
    const rubricPath = join(dir, "rubrics/acme-prod-library.json");
    const rubric = JSON.parse(readFileSync(rubricPath, "utf8"));
    const walled = rubric.tickets.find((t: { decoys: string[] }) => t.decoys.length > 0);
    walled.decoys = [];
    writeFileSync(rubricPath, JSON.stringify(rubric, null, 2) + "\n");
    const r = check(dir);
    expect(r.status).toBe(1);
    expect(r.out).toContain(`task ${walled.label} compiles to a different key than the library's (decoys:`);
  }, 180_000);
});
