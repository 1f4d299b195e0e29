// `worlds init` once the questions are answered: plan every file, refuse to overwrite without --force, write
// them all, bring in a ticket export, and check the result the way `worlds tasks validate` does. Any failure
// after writing puts every file back as it was.
import { existsSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { parseSeed } from "../../core/world/seed/parse";
import { compileFromDisk, printProblems } from "../tasks/compile-file";
import { writeAll } from "../tasks/files";
import { importCommand } from "../tasks/import/command";
import { formatProblem } from "../../core/kinds/account/tasks/problems";
import { importedTasksToLeaveOut, leaveOutTasks, taskIdsOf } from "./leave-out";
import { seedImportCommand } from "../seed-import/command";
import type { CliIo } from "../tasks/io";
import { packageRoot, packageVersion } from "../paths";
import { PackageJsonError, planPackageJson, type PackageJsonPlan } from "./package-json";
import { loadLibrary, selectTasks, STARTER_CAP, type Selection } from "./packs";
import type { InitAnswers } from "./questions";
import { renderTasksFile, STARTER_INVARIANTS } from "./tasks-file";
import { AGENT_PLACEHOLDER } from "./placeholder";
import { DEPENDENCY_RUNNER, renderWorkflow, WORKFLOW_PATH, worldsCommand, type WorldsRunner } from "./workflow";

export const TASKS_PATH = "worlds/tasks.yaml";
export const POLICY_PATH = "worlds/policy.md";
export const IDENTITIES_IGNORE = "worlds/*.identities.json";

export interface InitOptions {
  answers: InitAnswers;
  /** --pack all: every task of every pack, uncapped. */
  all: boolean;
  force: boolean;
  /** How to read the account when it is `stripe` (init imports it, as `worlds seed import` would). */
  stripe?: StripeAccess;
}

export interface StripeAccess {
  apiKey?: string;
  apiBase?: string;
  /** --sample: the newest N of each resource; undefined = seed import's default. */
  sample?: number;
  salt?: string;
}

/** Where `--account stripe` writes the account it imports (the names README and docs/init.md use). */
export const ACCOUNT_SEED_PATH = "worlds/seeds/my-account.json";
export const ACCOUNT_MANIFEST_PATH = "worlds/seeds/my-account.manifest.json";
export const ACCOUNT_MAP_PATH = "worlds/my-account.identities.json";

interface Planned {
  path: string;
  text: string;
  what: string;
}

class InitRefused extends Error {}

export async function runInit(io: CliIo, opts: InitOptions): Promise<number> {
  // Files written before the rest is planned (the imported account) are put back on any failure after them.
  const undo: Array<() => void> = [];
  try {
    const code = await initInner(io, opts, undo);
    if (code !== 0) for (const u of undo) u();
    return code;
  } catch (e) {
    for (const u of undo) u();
    if (e instanceof InitRefused) {
      io.err(`worlds init: ${e.message}\nnothing written\n`);
      return 2;
    }
    throw e;
  }
}

/**
 * `--account stripe`: imports the account the way `worlds seed import --tickets` does, so every customer the
 * export names is looked up in the account and copied in with its subscriptions, invoices and charges, beyond the
 * sample; the rows are imported afterwards onto that seed. Returns the seed's path, or the import's exit code.
 */
async function importAccount(io: CliIo, opts: InitOptions, planned: string[], undo: Array<() => void>): Promise<string | number> {
  const a = opts.answers;
  const s = opts.stripe ?? {};
  if (!a.tickets) throw new InitRefused("--account stripe imports your account for the tickets of an export: add --tickets <export> (its requesters are copied in from the account), or use --account library");
  if (opts.all) throw new InitRefused("--pack all takes the library's packs, which are written for the library account; drop it, or use --account library");
  if (!s.apiKey) throw new InitRefused("--account stripe reads your account with an API key: pass --api-key K or set STRIPE_API_KEY (a restricted key with read access is enough)");
  const outputs = [ACCOUNT_SEED_PATH, ACCOUNT_MANIFEST_PATH, ACCOUNT_MAP_PATH].map((p) => resolve(io.cwd, p));
  refuseExisting(io, [...planned, ...outputs], opts.force);
  const before = outputs.map((p) => [p, existsSync(p) ? readFileSync(p) : null] as const);
  undo.push(() => {
    for (const [p, bytes] of before) {
      if (bytes === null) {
        if (existsSync(p)) unlinkSync(p);
      } else writeFileSync(p, bytes);
    }
  });
  io.out(`importing your account from Stripe, with the customers ${a.tickets} names\n`);
  const argv = [
    "--from-stripe", "--api-key", s.apiKey, "--tickets", a.tickets, "--out", ACCOUNT_SEED_PATH, "--identity-map", ACCOUNT_MAP_PATH,
    ...(s.apiBase ? ["--api-base", s.apiBase] : []), ...(s.sample ? ["--sample", String(s.sample)] : []), ...(s.salt ? ["--salt", s.salt] : []),
  ];
  // Its own "next:" line names the tasks import init is about to run; keep it off the user's screen.
  const quiet: CliIo = { ...io, out: (t) => (t.startsWith("next: ") ? undefined : io.out(t)) };
  const code = await seedImportCommand(quiet, argv);
  if (code !== 0) {
    io.err("worlds init: the account could not be imported (above); nothing written\n");
    return code;
  }
  return ACCOUNT_SEED_PATH;
}

function refuseExisting(io: CliIo, paths: string[], force: boolean): void {
  const existing = paths.filter((p) => existsSync(p));
  if (existing.length && !force) {
    throw new InitRefused(`${existing.map((p) => relative(io.cwd, p)).join(", ")} already exist${existing.length === 1 ? "s" : ""}; keep ${existing.length === 1 ? "it" : "them"}, or run again with --force to overwrite`);
  }
}

async function initInner(io: CliIo, opts: InitOptions, undo: Array<() => void>): Promise<number> {
  const a = opts.answers;
  if (opts.stripe?.sample !== undefined && a.account !== "stripe")
    throw new InitRefused("--sample widens the account init imports (--account stripe); a seed file was imported already: run worlds seed import --sample N --tickets <export> again instead");
  const at = (p: string) => resolve(io.cwd, p);
  const planned: Planned[] = [];
  let selection: Selection | null = null;
  let libraryTickets = 0;

  if (a.account === "library") {
    const lib = loadLibrary();
    libraryTickets = lib.tickets;
    selection = selectTasks(lib, a.authorities, { all: opts.all });
    const header = lib.packs[0].header;
    planned.push({
      path: at(TASKS_PATH),
      text: renderTasksFile({ seed: String(header.seed), policy: "policy.md", origin: originLine(selection, opts.all), header, tasks: selection.tasks }),
      what: "tasks",
    });
  } else {
    let account = a.account;
    if (account === "stripe") {
      const imported = await importAccount(io, opts, [at(TASKS_PATH), at(POLICY_PATH), ...(a.ci ? [at(WORKFLOW_PATH)] : [])], undo);
      if (typeof imported === "number") return imported;
      account = imported;
    }
    if (!a.tickets) throw new InitRefused(`the starter packs are written for the library account, so an imported account's tasks come from its tickets: add --tickets <export> (or answer the ticket question), or use --account library`);
    if (opts.all) throw new InitRefused("--pack all takes the library's packs, which are written for the library account; drop it, or use --account library");
    const seedPath = at(account);
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(seedPath, "utf8"));
    } catch (e) {
      throw new InitRefused(`seed ${account} is not valid JSON: ${(e as Error).message}`);
    }
    const seed = parseSeed(json);
    if (!seed.ok) throw new InitRefused(`seed ${account} is not a valid seed: ${seed.issues.slice(0, 3).map((i) => `${i.path}: ${i.message}`).join("; ")}`);
    const seedRef = relative(dirname(at(TASKS_PATH)), seedPath).split("\\").join("/");
    planned.push({
      path: at(TASKS_PATH),
      text: renderTasksFile({ seed: seedRef, policy: "policy.md", origin: `Tasks from ${a.tickets}, on your account (${seed.seed.name}).`, header: { mode: "isolated", currency: seed.seed.currency, invariants: STARTER_INVARIANTS }, tasks: [] }),
      what: "tasks",
    });
  }

  const policySource = a.policy === "default" ? join(packageRoot(), "seeds", "acme-policy.md") : at(a.policy);
  const policyText = readFileSync(policySource, "utf8");
  if (policyText.trim() === "") throw new InitRefused(`the policy ${a.policy} is empty; the judge and your reviewers need the rules in words`);
  planned.push({ path: at(POLICY_PATH), text: policyText, what: "policy" });
  const version = packageVersion();
  let pkg: PackageJsonPlan;
  try {
    pkg = planPackageJson(io.cwd, version);
  } catch (e) {
    if (e instanceof PackageJsonError) throw new InitRefused(e.message);
    throw e;
  }
  const runner: WorldsRunner = pkg.kind === "none" ? { kind: "npx", version } : DEPENDENCY_RUNNER;
  if (a.ci) planned.push({ path: at(WORKFLOW_PATH), text: renderWorkflow(TASKS_PATH, runner), what: "workflow" });

  refuseExisting(io, planned.map((p) => p.path), opts.force);

  // Snapshots of everything touched, so a failure below leaves the directory as it was.
  const gitignorePath = at(".gitignore");
  const touched = [...planned.map((p) => p.path), gitignorePath, ...(pkg.kind === "add" ? [pkg.path] : [])];
  const before = new Map(touched.map((p) => [p, existsSync(p) ? readFileSync(p) : null]));
  const restore = () => {
    for (const [p, bytes] of before) {
      if (bytes === null) {
        if (existsSync(p)) unlinkSync(p);
      } else writeFileSync(p, bytes);
    }
  };

  writeAll(planned.map(({ path, text }) => ({ path, text })));
  const ignoreAdded = addIgnoreLine(gitignorePath);
  if (pkg.kind === "add") writeFileSync(pkg.path, pkg.text);

  let imported = new Set<string>();
  if (a.tickets) {
    const starters = new Set(taskIdsOf(at(TASKS_PATH)));
    io.out(`importing ${a.tickets} into ${TASKS_PATH}\n`);
    const code = await importCommand(io, [a.tickets, "--into", TASKS_PATH], { requestersLookedUp: a.account === "stripe" });
    if (code !== 0) {
      restore();
      io.err(`worlds init: the ticket export could not be imported (above); nothing written\n`);
      return code;
    }
    imported = new Set(taskIdsOf(at(TASKS_PATH)).filter((id) => !starters.has(id)));
  }

  let { result } = await compileFromDisk(io, TASKS_PATH);
  const leaveOut = result.ok ? null : importedTasksToLeaveOut(result.problems, imported);
  if (!result.ok && leaveOut) {
    // Rows the account cannot grade: said, and left out; the rest of the export (and the account) is kept.
    for (const p of result.problems) io.err(formatProblem(p) + "\n");
    leaveOutTasks(at(TASKS_PATH), leaveOut);
    io.err(`left out ${leaveOut.length} imported task${leaveOut.length === 1 ? "" : "s"} (${leaveOut.join(", ")}) that cannot be graded on this account, the rest kept; the line${leaveOut.length === 1 ? "" : "s"} above say${leaveOut.length === 1 ? "s" : ""} what ${leaveOut.length === 1 ? "it needs" : "they need"} to be added to ${TASKS_PATH} by hand\n`);
    ({ result } = await compileFromDisk(io, TASKS_PATH));
  }
  if (!result.ok) {
    printProblems(io, result.problems, ` in ${TASKS_PATH}`);
    restore();
    io.err(`worlds init: the tasks file did not validate (above); nothing written\n`);
    return 2;
  }

  for (const p of planned) io.out(`wrote ${relative(io.cwd, p.path)}${describe(p, a, selection, libraryTickets, opts.all)}\n`);
  if (ignoreAdded) io.out(`added ${IDENTITIES_IGNORE} to .gitignore (identity maps hold real customer emails)\n`);
  io.out(`${dependencyLine(pkg, version)}\n`);
  io.out(`${result.summary}\n`);
  io.out(`next: ${pkg.kind === "add" ? "npm install, then " : ""}${worldsCommand(runner)} passk --tasks ${TASKS_PATH} -- <your agent command>\n`);
  return 0;
}

function dependencyLine(pkg: PackageJsonPlan, version: string): string {
  if (pkg.kind === "add") return `added worlds ${version} to devDependencies in package.json (run npm install, and commit the lockfile: CI's npm ci installs this version)`;
  if (pkg.kind === "present") return `package.json already has worlds in ${pkg.field} (${pkg.spec}); left as it is`;
  return `no package.json here: the workflow runs worlds ${version} through npx --yes worlds@${version}`;
}

function originLine(sel: Selection, all: boolean): string {
  const from = sel.packs.length ? `the starter packs for ${sel.packs.join(", ")}` : "the tasks every starter pack carries (no authority chosen)";
  if (all) return `Every task of every starter pack (${sel.tasks.length}), on the bundled Acme library account.`;
  if (sel.capped) return `${sel.tasks.length} of the ${sel.available} tasks in ${from}: the first of each trap class, then inbox order. \`worlds init --pack all\` writes them all.`;
  return `The ${sel.tasks.length} tasks in ${from}, on the bundled Acme library account.`;
}

function describe(p: Planned, a: InitAnswers, sel: Selection | null, libraryTickets: number, all: boolean): string {
  if (p.what === "tasks" && sel) {
    const classes = `${sel.trapClasses} trap class${sel.trapClasses === 1 ? "" : "es"}`;
    if (all) return `: every pack task, ${sel.tasks.length} (${classes}); the library holds ${libraryTickets} tickets in all, the collision follow-ups only in the full inbox`;
    const from = sel.packs.length ? `the ${sel.packs.join(", ")} pack${sel.packs.length === 1 ? "" : "s"}` : "the tasks every pack carries";
    const cap = sel.capped ? `, capped at ${STARTER_CAP} of ${sel.available}; --pack all writes every pack task` : "";
    return `: ${sel.tasks.length} tasks from ${from} (${classes}${cap})`;
  }
  if (p.what === "tasks") return `: on your account, tasks from ${a.tickets}`;
  if (p.what === "policy") return a.policy === "default" ? " (the library's support policy; edit it to yours)" : ` (from ${a.policy})`;
  return ` (replace ${AGENT_PLACEHOLDER} with your agent command; until then the check exits 2)`;
}

/** Appends the identity-map line to .gitignore unless a line already covers it. Returns whether it wrote. */
function addIgnoreLine(path: string): boolean {
  const text = existsSync(path) ? readFileSync(path, "utf8") : "";
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  if (lines.includes(IDENTITIES_IGNORE) || lines.includes(`/${IDENTITIES_IGNORE}`)) return false;
  writeFileSync(path, `${text}${text === "" || text.endsWith("\n") ? "" : "\n"}${IDENTITIES_IGNORE}\n`);
  return true;
}
