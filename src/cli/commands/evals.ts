// `worlds evals import|check|run`: portable task files (docs/replay.md) read, their graders checked, agents run on them.
import { existsSync } from "node:fs";
import { basename, extname, join } from "node:path";
import { z } from "zod";
import { flag, FlagError, helpText, parseArgs, type FlagDefs } from "../flags";
import { readTaskFile } from "../evals/read";
import { selectTasks } from "../evals/select";
import { inferredEffectsLine, summaryLine, taskLine, writeBenchmark } from "../evals/import";
import { checkExitCode, checkLine, checkReferences, checkSummary, needsJudge } from "../evals/check";
import { judgeFrom, JUDGE_DEFS, JUDGE_SHAPE } from "../evals/judge-flags";
import { runCommand, RUN_USAGE } from "../evals/run-command";
import type { RubricJudge } from "../../core/kinds/replay/rubric/index";
import { reportFlagError } from "./errors";
import type { Command } from "./types";

const out = (s: string) => void process.stdout.write(s);
const err = (s: string) => void process.stderr.write(s);

/** A sub-command's flags and its one FILE, or the exit code already reported (a bad line, or --help printed). */
function fileArgs<S extends z.ZodType>(sub: string, argv: string[], defs: FlagDefs, schema: S, usage: string, summary: string): { file: string; flags: z.infer<S> } | number {
  try {
    const args = parseArgs(`evals ${sub}`, argv, defs, schema, { positionals: 1 });
    if (args.help) return out(helpText(usage, summary, defs)), 0;
    if (args.positionals.length !== 1) throw new FlagError(`evals ${sub}`, `name the task file (worlds evals ${sub} FILE).`);
    return { file: args.positionals[0], flags: args.flags };
  } catch (e) {
    if (e instanceof FlagError) return reportFlagError(e);
    throw e;
  }
}

const IMPORT_DEFS: FlagDefs = {
  out: { kind: "value", placeholder: "PATH", help: "where to write the checked copy (default: worlds/evals/<file's name>.json)" },
  force: { kind: "switch", help: "overwrite an existing copy" },
};
const IMPORT_SCHEMA = z.strictObject({ out: flag.text().optional(), force: flag.switch() });
const IMPORT_USAGE = "worlds evals import FILE [--out PATH] [--force]";
const IMPORT_SUMMARY =
  "Checks every task of a task file (a benchmark, a list of tasks or one task, JSON or YAML) field by field and copies it\n" +
  "into the project. A file can also be used directly: worlds evals check takes its path.";

async function importCommand(argv: string[]): Promise<number> {
  const args = fileArgs("import", argv, IMPORT_DEFS, IMPORT_SCHEMA, IMPORT_USAGE, IMPORT_SUMMARY);
  if (typeof args === "number") return args;
  const file = args.file;
  const read = await readTaskFile(file);
  if (!read.ok) {
    for (const line of read.lines) err(line + "\n");
    err(`worlds evals import: ${file} was not imported; fix the problems above (each names the task and the field).\n`);
    return 2;
  }
  const target = args.flags.out ?? join("worlds", "evals", `${basename(file, extname(file))}.json`);
  if (existsSync(target) && !args.flags.force) {
    err(`worlds evals import: ${target} exists; pass --force to replace it, or --out for another path.\n`);
    return 2;
  }
  await writeBenchmark(target, read.tasks);
  for (const t of read.tasks) {
    out(taskLine(t) + "\n");
    const inferred = inferredEffectsLine(t);
    if (inferred) out(inferred + "\n");
  }
  out(`${summaryLine(read.tasks)}\nwrote ${target}\n`);
  return 0;
}

const CHECK_DEFS: FlagDefs = {
  ...JUDGE_DEFS,
  grader: { kind: "value", placeholder: "CMD", help: "your own grader, for tasks whose grader kind is not rubric or end_state: a command reading {task, episode} as JSON on stdin and answering {reward, passed}" },
  task: { kind: "list", placeholder: "SLUG", help: "check only this task's reference runs (repeatable)" },
};
const CHECK_SCHEMA = z.strictObject({ ...JUDGE_SHAPE, grader: flag.text().optional(), task: flag.list().optional() });
const CHECK_USAGE = "worlds evals check FILE [--task SLUG]... [--judge P:M] [--judge-base-url URL] [--judge-timeout S] [--no-cache] [--grader CMD]";
const CHECK_SUMMARY =
  "Grades every task's reference runs with the task's own grader, running no agent. A failure's production run must not\n" +
  "pass and a success's must: a grade that disagrees means the grader is wrong. Exit 1 names the tasks that disagree;\n" +
  "4 when some runs could not be graded; 0 otherwise.";

async function checkCommand(argv: string[]): Promise<number> {
  const args = fileArgs("check", argv, CHECK_DEFS, CHECK_SCHEMA, CHECK_USAGE, CHECK_SUMMARY);
  if (typeof args === "number") return args;
  const read = await readTaskFile(args.file);
  if (!read.ok) {
    for (const line of read.lines) err(line + "\n");
    return 2;
  }
  let tasks;
  try {
    tasks = selectTasks("evals check", args.file, read.tasks, args.flags);
  } catch (e) {
    if (e instanceof FlagError) return reportFlagError(e);
    throw e;
  }
  let judge: RubricJudge | null = null;
  if (needsJudge(tasks)) {
    const j = judgeFrom(args.flags);
    if (!j.ok) return err(`worlds evals check: ${j.message}\n`), 2;
    judge = j.judge;
  }
  const rows = await checkReferences(tasks, { judge, grader: args.flags.grader ?? null });
  for (const r of rows) out(checkLine(r) + "\n");
  out(checkSummary(rows) + "\n");
  const wrong = [...new Set(rows.filter((r) => r.status === "DISAGREE").map((r) => r.slug))];
  if (wrong.length) err(`worlds evals check: the grader disagrees with expect on task${wrong.length === 1 ? "" : "s"} ${wrong.join(", ")}: fix the grader (its criteria or checks) or the reference run's expect.\n`);
  return checkExitCode(rows);
}

const SUBS: Record<string, (argv: string[]) => Promise<number>> = { import: importCommand, check: checkCommand, run: runCommand };
const USAGE = `worlds evals ${Object.keys(SUBS).join("|")} ...`;

export const evals: Command = {
  summary: "portable task files: import them, grade their reference runs, run an agent on them (docs/replay.md)",
  async run(argv) {
    const [sub, ...rest] = argv;
    if (!sub || sub === "--help" || sub === "-h" || sub === "help") {
      (sub ? process.stdout : process.stderr).write(`usage: ${USAGE}\n\n  ${IMPORT_USAGE}\n  ${CHECK_USAGE}\n  ${RUN_USAGE}\n`);
      return sub ? 0 : 2;
    }
    const handler = Object.hasOwn(SUBS, sub) ? SUBS[sub] : undefined;
    if (!handler) return reportFlagError(new FlagError("evals", `unknown sub-command '${sub}' (${Object.keys(SUBS).join(", ")}).`));
    return handler(rest);
  },
};
