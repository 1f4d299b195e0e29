// The bad-tasks-file corpus, set up in a fresh directory: the committed fixtures copied (git keeps no file
// modes, so identity maps get theirs here), plus the inputs too large to commit, generated.
import { chmodSync, cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const FIXTURES = join(import.meta.dirname, "..", "fixtures");

interface Recipe {
  kind: "padding" | "long-body";
  bytes: number;
}

/** A copy of test/fixtures in a temporary directory; returns the copy's tasks-bad directory. */
export function setUpBadCorpus(): { root: string; dir: string } {
  const root = mkdtempSync(join(tmpdir(), "worlds-tasks-bad-"));
  cpSync(FIXTURES, root, { recursive: true });
  const dir = join(root, "tasks-bad");
  for (const f of readdirSync(join(dir, "maps"))) chmodSync(join(dir, "maps", f), f.startsWith("world-readable") ? 0o644 : 0o600);
  chmodSync(join(root, "tasks-seed", "tasks-fixture.identities.json"), 0o600);
  const recipes = JSON.parse(readFileSync(join(dir, "generated.json"), "utf8")) as Record<string, Recipe>;
  for (const [name, r] of Object.entries(recipes)) writeFileSync(join(dir, name), generate(r));
  return { root, dir };
}

function generate(r: Recipe): string {
  const head = "version: 1\nseed: ../tasks-seed/account.json\ninvariants: [deleted.customers==0]\ntasks:\n";
  if (r.kind === "padding") {
    const task = "  - requester: billing@northwind.example.com\n    subject: Help\n    body: Please help with our account; this line pads the file.\n";
    return head + task.repeat(Math.ceil(r.bytes / task.length));
  }
  return `${head}  - id: LONG\n    requester: billing@northwind.example.com\n    subject: A very long message\n    body: ${"x".repeat(r.bytes)}\n`;
}

/** Every bad fixture's name (without .yaml), committed and generated, sorted. */
export function badFixtureNames(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".yaml"))
    .map((f) => f.slice(0, -5))
    .sort();
}
