// The lines init and doctor print about a tool set: counts and digest, each refusal, which forms it reaches.
import { countsLine, fileLine, type ToolSet } from "../../core/tools/toolset";
import type { Flow } from "../../core/tools/tasks/generate";

export function setLine(set: ToolSet): string {
  return `${set.name}: ${countsLine(set)}; ${fileLine(set)}; the answers are simulated from your schemas, and your backend is never called`;
}

export function refusalLines(set: ToolSet): string[] {
  return set.refused.map((r) => `refused     ${r.name}: ${r.reason}`);
}

/** Which task forms the set can make, and why not where it cannot. */
export function formLines(set: ToolSet, flows: Flow[]): string[] {
  const targets = set.tools.filter((t) => t.target).length;
  const reads = set.tools.filter((t) => t.effect === "read" && t.checkable.length > 0).length;
  return [
    `call        ${targets ? `reachable: ${targets} tool${targets === 1 ? "" : "s"} can be a target` : "unavailable: no tool can be a target"}`,
    `read-then-call ${reads && targets ? `reachable: ${reads} read${reads === 1 ? "" : "s"} with a checkable argument` : "unavailable: it needs a read tool with a checkable argument and a target (declare reads with --own-read)"}`,
    `flow        ${flows.length ? `reachable: ${flows.map((f) => `${f.from}.${f.field} -> ${f.to}.${f.param}`).join(", ")}` : "unavailable: no flow declared (--own-flow FROM.FIELD:TO.PARAM to init, or flows: in worlds/tools.yaml)"}`,
  ];
}

export function freeTextLines(set: ToolSet): string[] {
  const free = set.tools.filter((t) => !t.target && t.effect !== "read" && t.checkable.length === 0 && Object.keys(t.inputSchema.properties ?? {}).length > 0);
  return free.map((t) => `offered     ${t.name}: only free-text arguments, so it is offered but never a task's target`);
}
