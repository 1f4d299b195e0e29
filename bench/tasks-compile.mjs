// Compile a 1,000-task file (`worlds tasks build`) and import a 10,000-row CSV (`worlds tasks import`) through
// the built CLI (dist/cli/main.mjs, from `npm run build`), each in its own Node process so the peak memory
// printed is that operation's. Inputs are generated on the bundled acme-small seed's customers.
// Usage: node bench/tasks-compile.mjs [--tasks N] [--rows N] [--reps N]
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const cli = join(root, "dist", "cli", "main.mjs");
const arg = (name, dflt) => (process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : dflt);

// Child mode: run one CLI command in this process and report wall time and peak RSS.
if (process.argv[2] === "--child") {
  const { main } = await import(pathToFileURL(cli).href);
  const argv = JSON.parse(process.argv[3]);
  const sink = { write: () => true };
  process.stdout.write = sink.write;
  const t0 = performance.now();
  const code = await main(argv);
  const ms = performance.now() - t0;
  process.stderr.write(JSON.stringify({ code, ms, maxRssMiB: process.resourceUsage().maxRSS / 1024 }) + "\n");
  process.exit(0);
}

if (!existsSync(cli)) {
  console.error(`bench: ${cli} does not exist; run npm run build first`);
  process.exit(2);
}

const TASKS = arg("--tasks", 1000);
const ROWS = arg("--rows", 10_000);
const REPS = arg("--reps", 3);

// Lines that resolve on acme-small, one per kind the compiler handles.
const CASES = [
  ["billing.northwind@example.com", "refund $99.00 on ch_AcmeNorthwindDup"],
  ["billing.northwind@example.com", "refund 500 on latest"],
  ["billing.northwind@example.com", "credit $5.00"],
  ["bursar.juniper@example.com", "cancel at period end"],
  ["bursar.juniper@example.com", "void in_AcmeJuniper0912"],
  ["accounts.harbor@example.com", "escalate"],
  ["founders.nimbus@example.com", "plan change to price_AcmeGrowthMonthly"],
  ["ops.mosaic@example.com", "none"],
  ["billing.iris@example.com", null],
  ["hello.bluebird@example.com", "refund $10.00"],
];
const EMAILS = [...new Set(CASES.map(([e]) => e)), "finance.cobalt@example.com", "studio.ember@example.com", "office.garnet@example.com"];
const BODY = "We were charged for September and something does not look right: the amount, the date, or both. Could you look into it and fix whatever needs fixing? Thanks, the finance team.";

function tasksFile(n) {
  const out = ["version: 1", "seed: acme-small", "invariants:", "  - deleted.customers==0", "  - created.subscriptions==0", "tasks:"];
  for (let i = 0; i < n; i++) {
    const [email, line] = CASES[i % CASES.length];
    out.push(`  - id: B-${i + 1}`, `    requester: ${email}`, `    subject: Billing question ${i + 1}`, "    body: |", `      ${BODY}`, `      Reference ${i + 1}.`, "    tags: [billing, bench]");
    if (line) out.push(`    expected: ${line}`);
  }
  return out.join("\n") + "\n";
}

function csvFile(n) {
  const out = ["Ticket #,Email,Customer,Subject,Description,Priority,Tags,Created at"];
  const prios = ["Low", "Normal", "High", "Urgent", "P2"];
  for (let i = 0; i < n; i++) {
    const email = i % 20 === 19 ? `someone${i}@unknown.example` : EMAILS[i % EMAILS.length];
    const day = String(1 + (i % 28)).padStart(2, "0");
    out.push(`T-${i + 1},${email},Customer ${i % 50},"Question ${i + 1}, about ""billing""","${BODY}\nSecond line of ticket ${i + 1}.",${prios[i % prios.length]},billing bench,2026-08-${day} 10:${String(i % 60).padStart(2, "0")}:00 UTC`);
  }
  return out.join("\r\n") + "\r\n";
}

function measure(cwd, argv) {
  const runs = [];
  for (let r = 0; r < REPS; r++) {
    const res = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--child", JSON.stringify(argv)], { cwd, encoding: "utf8" });
    const last = res.stderr.trim().split("\n").pop();
    const m = JSON.parse(last);
    if (m.code !== 0) throw new Error(`bench: ${argv.join(" ")} exited ${m.code}:\n${res.stderr}`);
    runs.push(m);
    // Each import run must start from a fresh file.
    if (argv[1] === "import") rmSync(join(cwd, "imported.yaml"), { force: true });
  }
  runs.sort((a, b) => a.ms - b.ms);
  return { median: runs[Math.floor(runs.length / 2)].ms, rss: Math.max(...runs.map((x) => x.maxRssMiB)) };
}

const dir = mkdtempSync(join(tmpdir(), "worlds-bench-tasks-"));
try {
  writeFileSync(join(dir, "tasks.yaml"), tasksFile(TASKS));
  writeFileSync(join(dir, "tickets.csv"), csvFile(ROWS));
  const kib = (f) => (statSync(join(dir, f)).size / 1024).toFixed(0);
  const baseline = measure(dir, ["--version"]);
  const build = measure(dir, ["tasks", "build", "tasks.yaml", "--out-seed", "out/seed.json", "--out-rubric", "out/rubric.json"]);
  const imp = measure(dir, ["tasks", "import", "tickets.csv", "--into", "imported.yaml", "--seed", "acme-small"]);
  console.log(`tasks compile and import through the built CLI, median of ${REPS} runs, each in a fresh Node ${process.version} process`);
  console.log(`  CLI start-up only            ${baseline.median.toFixed(0).padStart(6)} ms   peak RSS ${baseline.rss.toFixed(0)} MiB`);
  console.log(`  tasks build, ${TASKS} tasks     ${build.median.toFixed(0).padStart(6)} ms   peak RSS ${build.rss.toFixed(0)} MiB   (file ${kib("tasks.yaml")} KiB)`);
  console.log(`  tasks import, ${ROWS} rows  ${imp.median.toFixed(0).padStart(6)} ms   peak RSS ${imp.rss.toFixed(0)} MiB   (CSV ${kib("tickets.csv")} KiB)`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
