// The dials on a team's tools, each at its fixed levels, cut to what the imported set reaches. A dial with fewer
// than two reachable levels has nothing to compare and is listed as unavailable, with the reason a team can act
// on. No decoy-tools dial and no control arm here: lookalikes of a team's own tools are the similarity dial.
import { answerField, handoverParam } from "../tasks/parts";
import type { Flow } from "../tasks/generate";
import type { ImportedTool, ToolSet } from "../toolset";
import { declaredChains } from "./chains";

export const DIALS = ["similarity", "faults", "history", "block", "arguments", "spread", "depth", "shape"] as const;
export type DialName = (typeof DIALS)[number];

/** The levels each dial is offered at; arguments and depth take theirs from the set. */
export const DIAL_LEVELS: Record<Exclude<DialName, "arguments" | "depth">, readonly number[]> = {
  similarity: [0, 1, 2, 3],
  faults: [0, 1, 2, 4],
  history: [0, 300, 600, 1200, 2400],
  block: [8, 16, 32, 64],
  spread: [1, 2, 4],
  shape: [0, 1],
};

export const SHAPES = ["side by side", "in sequence"] as const;
export const ARGUMENT_BOUNDS = { min: 2, max: 8 } as const;

const FLOW_HOW = "declare one with --own-flow FROM.FIELD:TO.PARAM to init, or under flows: in worlds/tools.yaml";

export function levelLabel(dial: DialName, level: number): string {
  if (dial === "shape") return SHAPES[level] ?? String(level);
  if (dial === "history") return `${level} tokens`;
  if (dial === "block") return `${level} tools`;
  return String(level);
}

/** `faults-2`, `shape-in-sequence`: an arm's name and its tasks file's. */
export const armName = (dial: DialName, level: number) => `${dial}-${levelLabel(dial, level).replace(/ tokens| tools/, "").replace(/ /g, "-")}`;

export type DialReach = { dial: DialName; levels: number[]; unavailable?: undefined } | { dial: DialName; levels?: undefined; unavailable: string };

const checkableRequired = (t: ImportedTool) => (t.inputSchema.required ?? []).filter((r) => t.checkable.includes(r)).length;

/** The arguments dial's levels for one tool: from 2 (or its checkable required count) to 8 (or its checkable count). */
export function argumentLevels(t: ImportedTool): number[] {
  const lo = Math.max(ARGUMENT_BOUNDS.min, checkableRequired(t));
  const hi = Math.min(ARGUMENT_BOUNDS.max, t.checkable.length);
  if (hi <= lo) return [];
  return [...new Set([lo, ...[4].filter((x) => x > lo && x < hi), hi])];
}

/** The target the arguments dial uses: the one reaching the most levels, then the most checkable parameters. */
export function argumentsTargets(set: ToolSet): { levels: number[]; tools: ImportedTool[] } {
  const targets = set.tools.filter((t) => t.target);
  let best: number[] = [];
  for (const t of targets) {
    const l = argumentLevels(t);
    if (l.length > best.length || (l.length === best.length && l[l.length - 1] > best[best.length - 1])) best = l;
  }
  if (!best.length) return { levels: [], tools: [] };
  // Every task of the arm must reach every level: a tool qualifies when its own range covers the best one.
  const tools = targets.filter((t) => checkableRequired(t) <= best[0] && t.checkable.length >= best[best.length - 1]);
  return { levels: best, tools };
}

export interface SpreadPair {
  read: ImportedTool;
  write: ImportedTool;
  param: string;
  field: string;
}

export function spreadPairs(set: ToolSet): SpreadPair[] {
  const reads = set.tools.filter((t) => t.effect === "read" && t.checkable.length > 0);
  const out: SpreadPair[] = [];
  for (const write of set.tools.filter((t) => t.target)) {
    const param = handoverParam(write);
    if (!param) continue;
    for (const read of reads) {
      const field = answerField(read, param);
      if (field) out.push({ read, write, param, field });
    }
  }
  return out;
}

/** A chain that can run twice in sequence: its first call takes a checkable string, its last answer can carry one. */
export function shapeChains(set: ToolSet, flows: readonly Flow[]) {
  return declaredChains(set, flows).filter((c) => {
    const p = handoverParam(c[0].tool);
    return p !== null && answerField(c[c.length - 1].tool, p) !== null;
  });
}

export function dialReach(set: ToolSet, flows: readonly Flow[]): DialReach[] {
  const targets = set.tools.filter((t) => t.target);
  const reads = set.tools.filter((t) => t.effect === "read");
  const chains = declaredChains(set, flows);
  const reach = (dial: DialName): DialReach => {
    const no = (unavailable: string): DialReach => ({ dial, unavailable });
    switch (dial) {
      case "similarity":
        return targets.length ? { dial, levels: [...DIAL_LEVELS.similarity] } : no("no tool can be a target");
      case "faults":
        return { dial, levels: [...DIAL_LEVELS.faults] };
      case "history":
        return reads.length ? { dial, levels: [...DIAL_LEVELS.history] } : no("the seeded calls need a read tool, and none is known to read (declare reads with --own-read, or read: in worlds/tools.yaml)");
      case "block": {
        const levels = DIAL_LEVELS.block.filter((n) => n <= set.tools.length);
        return levels.length >= 2 ? { dial, levels } : no(`blocks of ${DIAL_LEVELS.block.slice(0, 2).join(" and ")} tools need at least ${DIAL_LEVELS.block[1]} usable tools; the set has ${set.tools.length}`);
      }
      case "arguments": {
        const a = argumentsTargets(set);
        const most = Math.max(0, ...targets.map((t) => t.checkable.length));
        return a.levels.length >= 2 ? { dial, levels: a.levels } : no(`it needs a target with more than ${ARGUMENT_BOUNDS.min} checkable parameters (beyond its required ones); the most any target has is ${most}`);
      }
      case "spread":
        return spreadPairs(set).length ? { dial, levels: [...DIAL_LEVELS.spread] } : no("it needs a read tool with a checkable argument whose answer can carry a string, and a target with a checkable string parameter");
      case "depth": {
        if (!chains.length) return no(`no flow is declared (${FLOW_HOW})`);
        return { dial, levels: Array.from({ length: chains[0].length }, (_, i) => i + 1) };
      }
      case "shape":
        if (!chains.length) return no(`no flow is declared (${FLOW_HOW})`);
        return shapeChains(set, flows).length ? { dial, levels: [...DIAL_LEVELS.shape] } : no("no declared chain starts with a call that takes a checkable string and ends with an answer that can carry one");
    }
  };
  return DIALS.map(reach);
}
