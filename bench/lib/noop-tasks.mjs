// A tasks file of n policy-free tasks on acme-small, each keyed `expected: none` (an agent that does nothing is
// graded, not refused), two per customer: the input of the harness benchmarks.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const EMAILS = ["billing.northwind@example.com", "hello.bluebird@example.com", "finance.cobalt@example.com", "accounts.delta@example.com", "studio.ember@example.com", "ap.fjord@example.com", "office.garnet@example.com", "billing.iris@example.com", "bursar.juniper@example.com", "accounts.kestrel@example.com", "studio.lumen@example.com", "ops.mosaic@example.com", "founders.nimbus@example.com"];

export function noopTasksFile(n, dir = mkdtempSync(join(tmpdir(), "worlds-bench-"))) {
  const lines = ["version: 1", "seed: acme-small", "mode: isolated", "invariants:", "  - deleted.customers==0", "tasks:"];
  for (let i = 0; i < n; i++) lines.push(`  - id: B-${i + 1}`, `    requester: ${EMAILS[i % EMAILS.length]}`, `    subject: Question ${i + 1}`, `    body: When is my next invoice? No changes please.`, `    expected: none`);
  const path = join(dir, `tasks-${n}.yaml`);
  writeFileSync(path, lines.join("\n") + "\n");
  return path;
}
