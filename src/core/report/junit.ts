// JUnit XML for CI dashboards: one testcase per task (its runs as properties and system-out), a failure when a
// keyed task did not pass every run, an error when only infrastructure stood in the way, skipped for
// policy-only tasks; plus one testcase for the checks no single task owns (invariants, budget, agent exits).
import { formatMoney } from "../results/money";
import type { Results, RunResult, TaskStats, WorldResult } from "../results/types";
import { agentFailure, pct, runLevelProblems, traceOf } from "./format";
import { traceLines } from "./trace-text";
import { verdictCases } from "./junit-verdicts";
import { xmlAttr, xmlText } from "./xml";

export function renderJunit(r: Results): string {
  const suiteName = `worlds passk ${r.tasks.file}`;
  const cases = r.crash_test.tasks.map((t) => taskCase(r, t));
  const checks = checksCase(r);
  const all = [...cases, checks, ...verdictCases(r)];
  const count = (kind: Case["kind"]) => all.filter((c) => c.kind === kind).length;
  const time = seconds(r.runs.flatMap((run) => run.worlds.map((w) => w.agent?.duration_ms ?? 0)));
  const props: [string, string][] = [
    ["status", r.status],
    ["exit_code", String(r.exit_code)],
    ["reason", r.reason],
    ["next_action", r.next_action],
    ["mode", r.mode],
    ["seed", r.tasks.seed.name],
    ["tasks_file_sha256", r.tasks.hashes.file],
    ["flawless_runs", `${r.crash_test.flawless_runs} of ${r.crash_test.runs}`],
    ...r.crash_test.suite.pass_hat_k.map((p): [string, string] => [`pass_hat_${p.k}`, String(p.value)]),
  ];
  const head = `<testsuite name="${xmlAttr(suiteName)}" tests="${all.length}" failures="${count("failure")}" errors="${count("error")}" skipped="${count("skipped")}" time="${time}"${r.generated_at ? ` timestamp="${xmlAttr(r.generated_at)}"` : ""}>`;
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="worlds" tests="${all.length}" failures="${count("failure")}" errors="${count("error")}" skipped="${count("skipped")}" time="${time}">`,
    `  ${head}`,
    `    <properties>`,
    ...props.map(([n, v]) => `      <property name="${xmlAttr(n)}" value="${xmlAttr(v)}"/>`),
    `    </properties>`,
    ...all.map((c) => c.xml),
    `  </testsuite>`,
    `</testsuites>`,
    "",
  ].join("\n");
}

interface Case {
  kind: "passed" | "failure" | "error" | "skipped";
  xml: string;
}

function taskCase(r: Results, t: TaskStats): Case {
  const item = r.tasks.items.find((i) => i.position === t.position)!;
  const trials = r.runs.map((run) => ({ run: run.index, runResult: run, w: run.worlds.find((w) => w.position === t.position) })).filter((x): x is { run: number; runResult: RunResult; w: WorldResult } => !!x.w);
  const props: [string, string][] = [
    ["position", String(t.position)],
    ["expected", item.expected ?? "policy-only"],
    ...(item.trap_class ? [["trap_class", item.trap_class] as [string, string]] : []),
    ...trials.map((x): [string, string] => [`run.${x.run}.verdict`, x.w.verdict ?? "policy"]),
    ...trials.map((x): [string, string] => [`run.${x.run}.world`, x.w.world ?? ""]),
  ];
  if (t.keyed) {
    props.push(["accuracy", `${t.passed}/${t.trials}`]);
    if (t.interval) props.push(["interval_95", `${t.interval.low}-${t.interval.high}`]);
    for (const p of t.pass_hat_k ?? []) props.push([`pass_hat_${p.k}`, String(p.value)]);
    props.push(["dollars_wrong", formatMoney(t.dollars_wrong_cents, r.currency)]);
    if (t.flaky) props.push(["flaky", "true"]);
  }
  const out = trials.map((x) => trialText(r, x.run, x.w)).join("\n");
  const notPassed = trials.filter((x) => x.w.passed === false);
  let kind: Case["kind"] = "passed";
  let outcome = "";
  if (!t.keyed) {
    kind = "skipped";
    outcome = `      <skipped message="${xmlAttr("policy-only task: no expected key, graded by the policy and the checks")}"/>`;
  } else if (notPassed.length > 0) {
    const onlyInfra = notPassed.every((x) => x.w.verdict === "infra_error");
    kind = onlyInfra ? "error" : "failure";
    const words = notPassed.map((x) => `run ${x.run}: ${x.w.verdict}${x.w.verdict === "passed" ? ` but the agent ${agentFailure(x.w.agent) ?? "failed a check"}` : ""}`);
    const message = `${t.passed} of ${t.trials} runs passed (${pct(t.accuracy)}); ${words.join("; ")}`;
    const type = onlyInfra ? "infra_error" : (notPassed.find((x) => x.w.verdict !== "infra_error")!.w.verdict ?? "failed");
    // The failure's body also lists the agent's calls: what it did is what a CI reader needs first.
    outcome = `      <${kind} message="${xmlAttr(message)}" type="${xmlAttr(type)}">${xmlText(notPassed.map((x) => [trialText(r, x.run, x.w), ...traceLines(traceOf(x.runResult, x.w), "  ")].join("\n")).join("\n"))}</${kind}>`;
  }
  const name = `${t.id}: ${item.subject}`;
  const time = seconds(trials.map((x) => x.w.agent?.duration_ms ?? 0));
  const xml = [
    `    <testcase classname="${xmlAttr(r.tasks.file)}" name="${xmlAttr(name)}" time="${time}">`,
    `      <properties>`,
    ...props.map(([n, v]) => `        <property name="${xmlAttr(n)}" value="${xmlAttr(v)}"/>`),
    `      </properties>`,
    ...(outcome ? [outcome] : []),
    `      <system-out>${xmlText(out)}</system-out>`,
    `    </testcase>`,
  ].join("\n");
  return { kind, xml };
}

function checksCase(r: Results): Case {
  const problems = r.runs.flatMap((run) => runLevelProblems(run).map((p) => `run ${run.index}: ${p}`));
  const listed = [...r.tasks.invariants, ...(r.tasks.budget ? ["budget"] : []), "agent exits"];
  const name = `checks: ${listed.join(", ")}`;
  const outcome =
    problems.length > 0
      ? `      <failure message="${xmlAttr(`${problems.length} check${problems.length === 1 ? "" : "s"} failed: ${problems[0]}`)}" type="check">${xmlText(problems.join("\n"))}</failure>`
      : "";
  return {
    kind: problems.length > 0 ? "failure" : "passed",
    xml: [`    <testcase classname="${xmlAttr(r.tasks.file)}" name="${xmlAttr(name)}" time="0">`, ...(outcome ? [outcome] : []), `    </testcase>`].join("\n"),
  };
}

function trialText(r: Results, run: number, w: WorldResult): string {
  const lines = [`run ${run} (world ${w.world ?? "none"}): ${w.verdict ?? "policy"}${w.dollars_wrong_cents > 0 ? `, ${formatMoney(w.dollars_wrong_cents, r.currency)} wrong` : ""}`];
  const agent = agentFailure(w.agent);
  if (agent) lines.push(`  agent ${agent}`);
  if (w.infra_error) lines.push(`  infrastructure error at ${w.infra_error.stage}: ${w.infra_error.message}`);
  for (const n of w.evidence.notes) lines.push(`  ${n}`);
  if (w.reply) lines.push(`  reply (${w.reply.bytes} bytes${w.reply.truncated ? ", excerpt" : ""}): ${w.reply.excerpt}`);
  return lines.join("\n");
}

function seconds(ms: number[]): string {
  let s = 0;
  for (const m of ms) s += m;
  return (s / 1000).toFixed(3);
}
