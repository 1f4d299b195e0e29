// A tier on a tools world. The family names one tool file (imported as `worlds tools init` imports it); each tier
// offers some of its tools and states its task as the world's own block parts: the writes that solve it (each a
// record that must end done), the answers its reads give (looked-up values), the reads a write waits on, and
// planned faults. The world's seed is built from these, so a tier's file never carries a tool's definition twice.
import { z } from "zod";
import { delivery, expectedWrite, toolCall, type ToolsWorldBlock } from "../kinds/tools/world-block";
import type { ToolDefinition } from "../kinds/tools/definition";
import { openAiTool } from "../kinds/tools/render";

/** A tools tier's seed.json: its share of the family's tool file and its task. */
export const toolsTierBlock = z.strictObject({
  /** The tool file's tools this tier offers the agent (distractors included). */
  tools: z.array(z.string().regex(/^[A-Za-z0-9_-]{1,64}$/)).min(1).max(256),
  writes: z.array(expectedWrite).default([]),
  deliveries: z.array(delivery).max(20_000).default([]),
  prerequisites: z.array(z.strictObject({ record: z.string(), read: toolCall })).default([]),
  faults: z.array(z.strictObject({ name: z.string(), nth: z.number().int().positive() })).default([]),
  max_calls: z.number().int().positive().max(1000).default(32),
});
export type ToolsTierBlock = z.infer<typeof toolsTierBlock>;

/** The fixed clock every tools tier's world keeps (answers with dates are drawn against it). */
export const TOOLS_TIER_CLOCK = "2026-06-01T09:00:00Z";

export interface ToolFileSet {
  name: string;
  format: "openai" | "mcp" | "openapi";
  sha256: string;
  tools: ToolDefinition[];
}

/** What is wrong with a tier's block against the family's tool file: tools it offers or names that the file lacks. */
export function toolsTierProblems(block: ToolsTierBlock, set: ToolFileSet, goldTools: readonly string[]): string[] {
  const known = new Set(set.tools.map((t) => t.name));
  const offered = new Set(block.tools);
  const out: string[] = [];
  const missing = block.tools.filter((t) => !known.has(t));
  if (missing.length) out.push(`seed.json offers ${missing.join(", ")}, which the tool file ${set.name} does not hold (it holds ${[...known].join(", ")})`);
  const named = [...new Set([...goldTools, ...block.writes.map((w) => w.name), ...block.deliveries.map((d) => d.call.name), ...block.faults.map((f) => f.name), ...block.prerequisites.map((p) => p.read.name)])];
  const unoffered = named.filter((t) => !offered.has(t));
  if (unoffered.length) out.push(`the tier calls or plans ${unoffered.join(", ")} but its seed.json does not offer ${unoffered.length === 1 ? "it" : "them"} (add to tools:)`);
  const records = block.writes.map((w) => w.record);
  const twice = records.filter((r, i) => records.indexOf(r) !== i);
  if (twice.length) out.push(`seed.json names the record ${twice[0]} twice`);
  return out;
}

/** The world's seed for a tier: the offered definitions, in the file's order, and the tier's task. */
export function toolsTierSeed(block: ToolsTierBlock, set: ToolFileSet, tier: string): Record<string, unknown> {
  const offered = new Set(block.tools);
  const world: ToolsWorldBlock = {
    set: { name: set.name, format: set.format, sha256: set.sha256 },
    draw_seed: 0,
    definitions: set.tools.filter((t) => offered.has(t.name)).map((t) => ({ name: t.name, ...(t.title ? { title: t.title } : {}), description: t.description, inputSchema: t.inputSchema, ...(t.outputSchema ? { outputSchema: t.outputSchema } : {}), effect: t.effect })),
    task: { id: tier, writes: block.writes, deliveries: block.deliveries, prerequisites: block.prerequisites, faults: block.faults },
    max_calls: block.max_calls,
  };
  return { version: 1, kind: "tools", name: tier.replace(/_/g, "-"), clock: TOOLS_TIER_CLOCK, currency: "usd", data: {}, tools: world };
}

/** What a tools tier holds, for the superset and size rules: its tools, the records its writes move, the answers its reads give. */
export function toolsTierFacts(block: ToolsTierBlock): { entityTypes: string[]; entities: number } {
  const entityTypes = ["tools", ...(block.writes.length ? ["records"] : []), ...(block.deliveries.length ? ["answers"] : [])];
  return { entityTypes, entities: block.tools.length + block.writes.length + block.deliveries.length };
}

/** What the agent reads: the tier's id, the request, and the offered tools in OpenAI's format (as `worlds tools run`). */
export function toolsTierTask(seed: Record<string, unknown>, tier: string, instruction: string): string {
  const world = seed.tools as ToolsWorldBlock;
  return JSON.stringify({ id: tier, request: instruction.trim(), tools: world.definitions.map(openAiTool) });
}
