// The words of a task's request: what to do (the team's intent line for the tool, else the first sentence of its
// description) and every value the call takes, never the tool's name, so choosing the tool is not a word match.
import type { ImportedTool } from "../toolset";

export function intentOf(tool: ImportedTool, intents: Record<string, string>): { text: string; fromIntent: boolean } {
  const declared = intents[tool.name] ?? (tool.title ? intents[tool.title] : undefined);
  if (declared) return { text: declared.trim().replace(/[.\s]+$/, ""), fromIntent: true };
  const first = (tool.description.split(/(?<=[.!?])\s/)[0] ?? "").trim().replace(/[.\s]+$/, "");
  const text = first || `Carry out the ${tool.name.replace(/[_-]+/g, " ")} operation`;
  return { text, fromIntent: false };
}

/** `order_id "K3X9QZ", amount 12.5` — strings quoted as JSON, everything else as JSON. */
export function statedValues(args: Record<string, unknown>, omit: readonly string[] = []): string {
  return Object.entries(args)
    .filter(([k]) => !omit.includes(k))
    .map(([k, v]) => `${k} ${JSON.stringify(v)}`)
    .join(", ");
}

export const lowerFirst = (s: string) => (s ? s[0].toLowerCase() + s.slice(1) : s);
