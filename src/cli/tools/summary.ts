// The lines init and doctor print about a tool set: counts and digest, each refusal, which forms it reaches.
import { countsLine, fileLine, type ToolSet } from "../../core/kinds/tools/toolset";
import { READ_THEN_CALL_NEEDS, readThenCallPairs, type Flow } from "../../core/kinds/tools/tasks/generate";
import { dialReach, levelLabel } from "../../core/kinds/tools/dials/catalog";
import { armsLine, measureArms, type Measure } from "../../core/kinds/tools/dials/recipes";
import type { LoadedTools } from "./load";

export function setLine(set: ToolSet): string {
  return `${set.name}: ${countsLine(set)}; ${fileLine(set)}; the answers are simulated from your schemas, and your backend is never called`;
}

export function refusalLines(set: ToolSet): string[] {
  return set.refused.map((r) => `refused     ${r.name}: ${r.reason}`);
}

/** Which rule decided each usable tool's effect, one line per rule. */
export function effectLines(set: ToolSet): string[] {
  const byRule = new Map<string, string[]>();
  for (const r of set.effectRules) byRule.set(r.note, [...(byRule.get(r.note) ?? []), r.name]);
  const shown = (xs: string[]) => `${xs.slice(0, 8).join(", ")}${xs.length > 8 ? ` and ${xs.length - 8} more` : ""}`;
  return [...byRule].map(([rule, names]) => `effect      ${rule}: ${shown(names)}`);
}

/** How answers are drawn where a schema was read generously (a oneOf's first object branch, fields left out). */
export function answerLines(set: ToolSet): string[] {
  return set.answerNotes.map((n) => `answer      ${n.name}: ${n.note}`);
}

/** Everything init and doctor say of a set after its counts: refusals first, then effects, answers and reach. */
export function summaryLines(set: ToolSet, flows: Flow[]): string[] {
  return [...refusalLines(set), ...effectLines(set), ...answerLines(set), ...freeTextLines(set), ...formLines(set, flows), ...dialLines(set, flows)];
}

/** Which task forms the set can make, and why not where it cannot. */
export function formLines(set: ToolSet, flows: Flow[]): string[] {
  const targets = set.tools.filter((t) => t.target).length;
  const pairs = readThenCallPairs(set);
  const reads = new Set(pairs.map(([r]) => r.name)).size;
  return [
    `call        ${targets ? `reachable: ${targets} tool${targets === 1 ? "" : "s"} can be a target` : "unavailable: no tool can be a target"}`,
    `read-then-call ${pairs.length ? `reachable: ${pairs.length} pair${pairs.length === 1 ? "" : "s"} of a read (${reads} in all) and a target` : `unavailable: ${READ_THEN_CALL_NEEDS} (declare reads with --own-read)`}`,
    `flow        ${flows.length ? `reachable: ${flows.map((f) => `${f.from}.${f.field} -> ${f.to}.${f.param}`).join(", ")}` : "unavailable: no flow declared (--own-flow FROM.FIELD:TO.PARAM to init, or flows: in worlds/tools.yaml)"}`,
  ];
}

export function freeTextLines(set: ToolSet): string[] {
  const free = set.tools.filter((t) => !t.target && t.effect !== "read" && t.checkable.length === 0 && Object.keys(t.inputSchema.properties ?? {}).length > 0);
  return free.map((t) => `offered     ${t.name}: only free-text arguments, so it is offered but never a task's target`);
}

/** Each dial: the levels the set reaches, or why it reaches none. */
export function dialLines(set: ToolSet, flows: Flow[]): string[] {
  return dialReach(set, flows).map((r) => `${`dial ${r.dial}`.padEnd(16)}${r.levels ? `levels ${r.levels.map((l) => levelLabel(r.dial, l)).join(", ")}` : `unavailable: ${r.unavailable}`}`);
}

/** `the first-look recipe: depth at 1 and 3, 10 tasks each`, or the forms when no recipe is set. */
export function measureLine(t: LoadedTools): string {
  const m = t.config.measure;
  if (!m) return `forms ${t.config.arms.join(", ")}, ${t.config.tasks_per_arm} tasks each`;
  const name = m.preset === "custom" ? "a custom recipe" : `the ${m.preset} recipe`;
  return `${name}: ${armsLine(measureArms(t.set, t.flows, m as Measure), t.config.tasks_per_arm)}`;
}
