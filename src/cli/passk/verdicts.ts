// passk's --gate and --baseline: the gates are parsed and the baseline file read before any server or world
// exists (a typo costs nothing, exit 2), and once the results are built they decide the status with them
// (core/gate/apply.ts) and the comparison is printed with the run, before its `status:` and `next:` lines.
import { readFileSync } from "node:fs";
import { baselineBlock } from "../../core/compare/baseline";
import { compareResults } from "../../core/compare/compare";
import { CompareInputError, readResultsText, readResultsValue, type ResultsDocument } from "../../core/compare/input";
import type { Comparison } from "../../core/compare/types";
import { applyVerdicts, evaluateGates, GATE_HELP, GateSyntaxError, parseGates, type Gate } from "../../core/gate/index";
import { renderCompareText } from "../../core/report/index";
import { commandLine, serializeResults, type Results, type ServerEnv } from "../../core/results/index";
import { flag, type FlagDefs } from "../flags";

export const VERDICT_FLAG_DEFS: FlagDefs = {
  gate: { kind: "list", placeholder: "EXPR", help: `pass only if the interval's bound clears it: ${GATE_HELP}; repeatable (docs/results.md, Gates)` },
  baseline: { kind: "value", placeholder: "F", help: "compare with an earlier results file (e.g. the main branch's) and fail on a significant regression" },
};

export const VERDICT_FLAG_SHAPE = {
  gate: flag.list().optional(),
  baseline: flag.text().optional(),
};

export const VERDICT_USAGE = "[--gate EXPR]... [--baseline F]";

export interface PreparedVerdicts {
  gates: Gate[];
  /** The gates as the user wrote them, for the rerun line. */
  gateArgs: string[];
  baseline: { file: string; doc: ResultsDocument } | null;
  /** Said once on stderr: a baseline with nothing to compare (it stopped before its tasks compiled). */
  notes: string[];
}

export type Prepared = { ok: true; prepared: PreparedVerdicts } | { ok: false; message: string; nextAction: string };

export function prepareVerdicts(f: { gate?: string[]; baseline?: string }): Prepared {
  let gates: Gate[];
  try {
    gates = parseGates(f.gate ?? []);
  } catch (e) {
    if (e instanceof GateSyntaxError) return { ok: false, message: `--gate ${e.message}`, nextAction: "write the gate as pass^3>=0.8 or dollars_wrong<=100 (quote it in the shell)" };
    throw e;
  }
  const notes: string[] = [];
  let baseline: PreparedVerdicts["baseline"] = null;
  if (f.baseline !== undefined) {
    let text: string;
    try {
      text = readFileSync(f.baseline, "utf8");
    } catch (e) {
      return { ok: false, message: `--baseline ${f.baseline}: cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`, nextAction: "name a results file written by worlds passk --json-file" };
    }
    try {
      const read = readResultsText(text, f.baseline);
      if (read.kind === "early") notes.push(`worlds passk: the baseline ${f.baseline} holds no crash test (that run was ${read.status}); nothing to compare with`);
      else baseline = { file: f.baseline, doc: read.doc };
    } catch (e) {
      if (e instanceof CompareInputError) return { ok: false, message: `--baseline ${e.message}`, nextAction: "name a results file written by worlds passk --json-file" };
      throw e;
    }
  }
  return { ok: true, prepared: { gates, gateArgs: [...(f.gate ?? [])], baseline, notes } };
}

/** A pass^K gate needs every task to run K times: refused before any world exists when the run makes fewer. */
export function gateRunsProblem(p: PreparedVerdicts, runs: number): string | null {
  const k = Math.max(0, ...p.gates.map((g) => (g.metric === "pass^k" ? g.k : 0)));
  return k > runs ? `--gate ${p.gates.find((g) => g.metric === "pass^k" && g.k === k)!.text} needs at least ${k} runs of every task; this run makes ${runs} (--runs ${k} or more)` : null;
}

export interface RerunPieces {
  source: string[];
  serverFlags: string[];
  serverEnv: ServerEnv;
  replayFlags: string[];
  only: string[];
  agent: string[];
}

export interface Finished {
  results: Results;
  comparison: Comparison | null;
}

/** The gates and the baseline applied to the built results. */
export function finishVerdicts(built: Results, p: PreparedVerdicts, rerun: RerunPieces | null): Finished {
  if (p.gates.length === 0 && !p.baseline) return { results: built, comparison: null };
  const gates = p.gates.length ? evaluateGates(built, p.gates) : undefined;
  let comparison: Comparison | null = null;
  if (p.baseline) {
    const read = readResultsValue(JSON.parse(serializeResults(built)), "this run");
    if (read.kind === "full") comparison = compareResults({ source: p.baseline.file, doc: p.baseline.doc }, { source: "this run", doc: read.doc });
  }
  const line = rerun
    ? (runs: number) =>
        commandLine(rerun.serverEnv, [
          "worlds",
          "passk",
          ...rerun.source,
          ...rerun.serverFlags,
          ...rerun.replayFlags,
          ...rerun.only.flatMap((t) => ["--task", t]),
          "--runs",
          String(runs),
          ...p.gateArgs.flatMap((g) => ["--gate", g]),
          ...(p.baseline ? ["--baseline", p.baseline.file] : []),
          // A built-in agent (--model) has no command: its flags are among the replay flags.
          ...(rerun.agent.length ? ["--", ...rerun.agent] : []),
        ])
    : undefined;
  return { results: applyVerdicts(built, { gates, baseline: comparison ? baselineBlock(comparison) : undefined, rerun: line }), comparison };
}

/** The run's text with the comparison inline, before the two contract lines that always end it. */
export function textWithComparison(text: string, comparison: Comparison | null): string {
  if (!comparison) return text;
  const lines = text.replace(/\n$/, "").split("\n");
  const tail = lines.splice(-2, 2);
  return [...lines, "", `against the baseline ${comparison.base.source}:`, renderCompareText(comparison, { contract: false }).replace(/\n$/, ""), "", ...tail].join("\n") + "\n";
}
