// Chains along the flows a team declared: tool A's answer field feeds tool B's parameter, B's feeds C's, and so
// on. Found by a bounded walk over the declared links only (worlds never guesses a link), longest first.
import type { ChainStep } from "../tasks/parts";
import type { Flow } from "../tasks/generate";
import type { ImportedTool, ToolSet } from "../toolset";

/** Calls in a chain at most: depth's levels stop here even when the declared links go further. */
export const MAX_CHAIN = 8;

const toolOf = (set: ToolSet, name: string): ImportedTool | undefined => set.tools.find((t) => t.name === name || t.title === name);

/** Every maximal chain of declared links (no tool twice), longest first, ties in the order the flows were declared. */
export function declaredChains(set: ToolSet, flows: readonly Flow[]): ChainStep[][] {
  const out: ChainStep[][] = [];
  const walk = (chain: ChainStep[], seen: Set<string>) => {
    const last = chain[chain.length - 1].tool;
    const next = flows.filter((f) => toolOf(set, f.from) === last);
    let extended = false;
    if (chain.length < MAX_CHAIN) {
      for (const f of next) {
        const to = toolOf(set, f.to);
        if (!to || seen.has(to.name)) continue;
        extended = true;
        walk([...chain, { tool: to, link: { field: f.field, param: f.param } }], new Set([...seen, to.name]));
      }
    }
    if (!extended && chain.length > 1) out.push(chain);
  };
  for (const f of flows) {
    const from = toolOf(set, f.from);
    if (from) walk([{ tool: from }], new Set([from.name]));
  }
  // A chain that is the tail of another adds nothing the longer one lacks at a lower depth.
  const key = (c: ChainStep[]) => c.map((s) => `${s.tool.name}<${s.link?.field ?? ""}>${s.link?.param ?? ""}`).join("|");
  const unique = out.filter((c, i) => out.findIndex((o) => key(o) === key(c)) === i);
  return unique.sort((a, b) => b.length - a.length);
}
