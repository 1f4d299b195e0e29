// JUnit testcases for the gates and the baseline, so a CI dashboard shows "pass^3>=0.8: undecided, about 10 runs
// would decide" beside the tasks instead of one unexplained red build.
import type { Results } from "../results/types";
import { xmlAttr, xmlText } from "./xml";

export interface VerdictCase {
  kind: "passed" | "failure";
  xml: string;
}

export function verdictCases(r: Results): VerdictCase[] {
  const out: VerdictCase[] = [];
  for (const g of r.gates ?? []) {
    const failed = g.outcome !== "passed";
    out.push(testcase(r, `gate ${g.gate}`, failed ? `${g.outcome}: ${g.reason}` : null, "gate", g.reason));
  }
  const b = r.baseline;
  if (b) out.push(testcase(r, `baseline ${b.source}`, b.status === "regressed" ? b.reason : null, "regression", `${b.status}: ${b.reason}`));
  return out;
}

function testcase(r: Results, name: string, failure: string | null, type: string, out: string): VerdictCase {
  const lines = [`    <testcase classname="${xmlAttr(r.tasks.file)}" name="${xmlAttr(name)}" time="0">`];
  if (failure) lines.push(`      <failure message="${xmlAttr(failure)}" type="${type}">${xmlText(failure)}</failure>`);
  lines.push(`      <system-out>${xmlText(out)}</system-out>`, `    </testcase>`);
  return { kind: failure ? "failure" : "passed", xml: lines.join("\n") };
}
