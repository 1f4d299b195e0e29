// `worlds compare BASE NEW`: two crash tests of the same tasks (results files, or run ids on a server), and
// whether the new one is significantly worse. Exit 0 no significant regression, 1 a significant regression,
// 2 a bad flag or input file, 3 no server for a run id, 4 nothing to compare (docs/results.md, "Comparing runs").
import { z } from "zod";
import { compareResults } from "../../core/compare/compare";
import { COMPARE_EXIT, COMPARE_SCHEMA, type Comparison, type EarlyComparison } from "../../core/compare/types";
import { renderCompareHtml, renderCompareText } from "../../core/report/index";
import { CORRECTIONS } from "../../core/stats/adjust";
import { flag, FlagError, helpText, parseArgs, type FlagDefs } from "../flags";
import { loadResults, LoadError } from "../compare/load";
import { checkOutputPaths, OutputPathError, writeFileAtomic } from "../results/write";
import type { Command } from "./types";

const DEFS: FlagDefs = {
  alpha: { kind: "value", placeholder: "A", help: "the significance level a regression must reach after adjustment (default 0.05)" },
  correction: { kind: "value", placeholder: "holm|bh|none", help: "adjustment for the number of tasks tested: Holm (default), Benjamini-Hochberg, or none" },
  json: { kind: "switch", help: "print the comparison JSON on stdout instead of text" },
  "json-file": { kind: "value", placeholder: "F", help: "also write the comparison JSON to F" },
  report: { kind: "value", placeholder: "F.html", help: "write the comparison as a self-contained HTML page" },
  url: { kind: "value", placeholder: "URL", help: "the server that holds a run id given instead of a file (default: $WORLDS_URL)" },
  token: { kind: "value", placeholder: "T", help: "its admin token (default: $WORLDS_TOKEN)" },
};

const SCHEMA = z.strictObject({
  alpha: z
    .string()
    .regex(/^(0?\.\d+|\d+(\.\d+)?e-\d+)$/i, { message: "must be a number between 0 and 1, e.g. 0.05" })
    .transform(Number)
    .pipe(z.number().gt(0, { message: "must be more than 0" }).lt(1, { message: "must be less than 1" }))
    .optional(),
  correction: flag.oneOf(CORRECTIONS).optional(),
  json: flag.switch(),
  "json-file": flag.text().optional(),
  report: flag.text().optional(),
  url: flag.url().optional(),
  token: flag.text().optional(),
});

const USAGE = "worlds compare BASE NEW [--alpha A] [--correction holm|bh|none] [--json] [--json-file F] [--report F.html] [--url URL] [--token T]\n       (BASE and NEW: results files from worlds passk --json-file, or run ids on the server)";

export const compare: Command = {
  summary: "compare two crash tests of the same tasks: what got worse, better or flaky, and whether it is more than noise (exit 1 on a significant regression)",
  async run(argv, env: NodeJS.ProcessEnv = process.env) {
    let args;
    try {
      args = parseArgs("compare", argv, DEFS, SCHEMA, { positionals: 2 });
      if (!args.help && args.positionals.length < 2) throw new FlagError("compare", `two results to compare: worlds compare BASE.json NEW.json (got ${args.positionals.length}).`);
      if (!args.help) checkOutputPaths({ "json-file": args.flags["json-file"], report: args.flags.report });
    } catch (e) {
      if (e instanceof FlagError) return early(argv.includes("--json"), "configuration_incomplete", `worlds compare: ${e.message}`, "run 'worlds compare --help' for its options");
      if (e instanceof OutputPathError) return early(argv.includes("--json"), "configuration_incomplete", `worlds compare: ${e.message}`, "give --json-file and --report a file each");
      throw e;
    }
    if (args.help) {
      process.stdout.write(helpText(USAGE, "Compares two crash tests of the same tasks, per task and for the suite, with exact tests and intervals.", DEFS));
      return 0;
    }
    const f = args.flags;
    const [baseRef, newRef] = args.positionals;
    const server = { url: f.url ?? env.WORLDS_URL, token: f.token ?? env.WORLDS_TOKEN };
    let sides;
    try {
      sides = [await loadResults(baseRef, server), await loadResults(newRef, server)] as const;
    } catch (e) {
      if (e instanceof LoadError) return early(!!f.json, e.exitCode === 2 ? "configuration_incomplete" : e.exitCode === 3 ? "setup_failed" : "inconclusive", `worlds compare: ${e.message}`, e.nextAction);
      throw e;
    }
    for (const [label, s] of [["base", sides[0]], ["new", sides[1]]] as const) {
      if (s.kind === "early")
        return early(!!f.json, "inconclusive", `worlds compare: the ${label} ${s.source} holds no crash test: that run stopped before its tasks compiled (${s.status}: ${s.reason})`, "compare two runs that ran their tasks");
    }
    const [b, n] = sides;
    if (b.kind !== "full" || n.kind !== "full") return 4;
    const comparison = compareResults({ source: b.source, doc: b.doc }, { source: n.source, doc: n.doc }, { alpha: f.alpha, correction: f.correction });
    const doc = serialize(comparison);
    try {
      if (f["json-file"]) writeFileAtomic(f["json-file"], doc);
      if (f.report) writeFileAtomic(f.report, renderCompareHtml(comparison));
    } catch (e) {
      return early(!!f.json, "configuration_incomplete", `worlds compare: could not write ${f["json-file"] ?? f.report}: ${(e as Error).message}`, "check the output path");
    }
    process.stdout.write(f.json ? doc : renderCompareText(comparison));
    return comparison.exit_code;
  },
};

export function serialize(c: Comparison | EarlyComparison): string {
  return JSON.stringify(c, null, 2) + "\n";
}

/** Failures before anything was compared: what and what next, and --json gets the contract-only document. */
function early(json: boolean, status: EarlyComparison["status"], reason: string, nextAction: string): number {
  const text = reason.replace(/^worlds compare: /, "");
  const doc: EarlyComparison = { schema: COMPARE_SCHEMA, status, reason: text, next_action: nextAction, exit_code: COMPARE_EXIT[status] };
  process.stderr.write(`${reason}\n`);
  process.stdout.write(json ? serialize(doc) : `status: ${status} (exit ${doc.exit_code}) — ${text}\nnext: ${nextAction}\n`);
  return doc.exit_code;
}
