// `worlds judge check --tasks F --judge provider:model`: how far to trust the policy judge on this policy and
// these tasks, measured against the keys (docs/judge.md).
import { z } from "zod";
import { agreementText } from "../../core/policy-judge/index";
import { flag, FlagError, type FlagDefs } from "../flags";
import { judgeCheck } from "../judge/check";
import { JUDGE_FLAG_DEFS, JUDGE_FLAG_SHAPE, JUDGE_USAGE, passkJudge, prepareJudge } from "../passk/judge";
import { loadTasks } from "../passk/load";
import { connectServer, SERVER_FLAG_DEFS, SERVER_FLAG_SHAPE, ServerSetupError, type ConnectedServer } from "../server/connect";
import { trapSignals } from "../signals";
import { commandArgs, reportFlagError } from "./errors";
import type { Command } from "./types";

const DEFS: FlagDefs = {
  tasks: { kind: "value", placeholder: "F", help: "the tasks file whose keyed tasks the reference agents work" },
  ...SERVER_FLAG_DEFS,
  concurrency: { kind: "value", placeholder: "N", help: "episodes at once (default: number of CPUs)" },
  json: { kind: "switch", help: "print the agreement report as JSON" },
  ...JUDGE_FLAG_DEFS,
};

const SCHEMA = z.strictObject({
  tasks: flag.text().optional(),
  ...SERVER_FLAG_SHAPE,
  concurrency: flag.int(1, 256).optional(),
  json: flag.switch(),
  ...JUDGE_FLAG_SHAPE,
});

const USAGE = `worlds judge check --tasks F --judge [P:M] [--server auto | --url URL] [--token T] [--concurrency N] [--json]\n                          ${JUDGE_USAGE}`;
const SUMMARY =
  "Runs the reference agents (careful, reckless, liar, silent) once on the file's keyed tasks with the judge on, and prints\n" +
  "the judge's agreement with the key: a confusion matrix overall, per key verdict, per trap class and per agent.";

export const judge: Command = {
  summary: "measure the policy judge against the keys on the bundled reference agents (worlds judge check)",
  async run(argv) {
    const [sub, ...rest] = argv;
    if (!sub || sub === "--help" || sub === "-h" || sub === "help") {
      (sub ? process.stdout : process.stderr).write(`usage: ${USAGE}\n\n${SUMMARY}\n`);
      return sub ? 0 : 2;
    }
    if (sub !== "check") return reportFlagError(new FlagError("judge", `unknown sub-command '${sub}' (worlds judge check is the one there is).`));
    const args = commandArgs("judge check", rest, { defs: DEFS, schema: SCHEMA, usage: USAGE, summary: SUMMARY }, (a) => {
      if (a.command) throw new FlagError("judge check", "judge check runs the reference agents; it takes no command after '--'.");
      if (!a.flags.tasks) throw new FlagError("judge check", "--tasks is required: the tasks file whose keys the judge is measured against.");
      if (a.flags.judge === undefined) throw new FlagError("judge check", "--judge is required: the model to check (e.g. --judge openai:gpt-4.1-mini).");
      if (a.flags.server && a.flags.url) throw new FlagError("judge check", "--server auto and --url name two servers; pick one.");
    });
    if (typeof args === "number") return args;
    const f = args.flags;
    const fail = (code: number, message: string, next: string) => (process.stderr.write(`worlds judge check: ${message}\nnext: ${next}\n`), code);
    const prepared = prepareJudge(f);
    if (!prepared.ok) return fail(2, prepared.message, prepared.nextAction);
    const interrupt = trapSignals();
    let server: ConnectedServer | null = null;
    try {
      try {
        server = await connectServer({ auto: f.server === "auto", url: f.url, token: f.token }, interrupt);
      } catch (e) {
        if (e instanceof ServerSetupError) return fail(e.exitCode, e.message, e.nextAction);
        throw e;
      }
      const loaded = await loadTasks(f.tasks!, server.client);
      if (!loaded.ok) {
        for (const p of loaded.problems) process.stderr.write(p + "\n");
        return fail(loaded.exitCode, loaded.reason, loaded.nextAction);
      }
      const judgeSetup = await passkJudge(f, prepared.prepared, f.tasks!, "policy" in loaded.compiled.file ? (loaded.compiled.file.policy ?? null) : null, interrupt.signal);
      if (!judgeSetup.ok) return fail(2, judgeSetup.message, judgeSetup.nextAction);
      const j = judgeSetup.judge!;
      const keyed = loaded.compiled.rubric.tickets.filter((t) => t.expect !== null).length;
      process.stderr.write(`${j.line}\njudge check: ${keyed} keyed task${keyed === 1 ? "" : "s"} × 4 reference agents\n`);
      const out = await judgeCheck({
        compiled: loaded.compiled,
        tasksFile: f.tasks!,
        judge: j,
        server,
        signal: interrupt.signal,
        concurrency: f.concurrency,
        onAgent: (agent, r) => process.stderr.write(`  ${agent.padEnd(13)} ${r.runs.flatMap((run) => run.worlds.map((w) => `${w.task} ${w.verdict}/${w.judge?.verdict ?? w.judge?.outcome ?? "-"}`)).join(", ")}\n`),
      });
      if (interrupt.received()) return interrupt.exitCode()!;
      if (!out.ok) return fail(2, out.message, "give the file at least one task with an expected: line");
      if (f.json) process.stdout.write(JSON.stringify({ model: j.run.model, prompt_version: j.run.prompt_version, policy: j.run.policy, tasks: f.tasks, ...out.report }, null, 2) + "\n");
      else process.stdout.write(`judge check: ${j.run.model} on ${j.run.policy.source} · ${f.tasks}\n${agreementText(out.report).join("\n")}\n`);
      return 0;
    } finally {
      await server?.stop();
      interrupt.dispose();
    }
  },
};
