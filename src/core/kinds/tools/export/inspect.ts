// The tasks as an Inspect dataset: one JSON line per sample, in the fields Inspect's Sample documents (`id`,
// `input`, `target`, `metadata`), which `json_dataset("tasks.jsonl")` reads with no field mapping. `input` is the
// request (a string), or on the history dial the conversation as Inspect's chat messages (the assistant's tool
// calls with arguments as an object, each answer as a tool message). `target` is the expected calls, one
// `name({...})` a line; `metadata` carries the tool block (OpenAI's format), the expected calls and store, and the
// world block, so a solver can offer the tools and a scorer can compare.
import { z } from "zod";
import { openAiTool } from "../render";
import type { ToolsTask } from "../tasks/generate";
import { GENERATOR_VERSION } from "../tasks/generate";
import { canonicalJson } from "../../../util/canonical";
import { historyCalls } from "./conversation";

const json = z.record(z.string(), z.unknown());
const chatMessage = z.union([
  z.strictObject({ role: z.enum(["system", "user"]), content: z.string() }),
  z.strictObject({ role: z.literal("assistant"), content: z.string(), tool_calls: z.array(z.strictObject({ id: z.string(), function: z.string(), arguments: json, type: z.literal("function") })).min(1) }),
  z.strictObject({ role: z.literal("tool"), content: z.string(), tool_call_id: z.string(), function: z.string() }),
]);

/** The part of Inspect's documented Sample this export writes. */
export const inspectSampleSchema = z.strictObject({
  id: z.string(),
  input: z.union([z.string().min(1), z.array(chatMessage).min(2)]),
  target: z.string().min(1),
  metadata: z.strictObject({
    arm: z.string(),
    dial: z.strictObject({ name: z.string(), level: z.number(), label: z.string() }).nullable(),
    generator: z.string(),
    tools: z.array(json).min(1),
    expected: json,
    world: json,
  }),
});
export type InspectSample = z.infer<typeof inspectSampleSchema>;

export function inspectSample(task: ToolsTask): InspectSample {
  const history = historyCalls(task);
  const input: InspectSample["input"] = history.length
    ? [
        { role: "user", content: task.request },
        { role: "assistant", content: "", tool_calls: history.map((c) => ({ id: c.id, function: c.name, arguments: c.arguments, type: "function" as const })) },
        ...history.map((c) => ({ role: "tool" as const, content: JSON.stringify(c.result), tool_call_id: c.id, function: c.name })),
      ]
    : task.request;
  return {
    id: task.id,
    input,
    target: task.expected.calls.map((c) => `${c.name}(${canonicalJson(c.arguments)})`).join("\n"),
    metadata: { arm: task.arm, dial: task.dial ?? null, generator: GENERATOR_VERSION, tools: task.world.definitions.map(openAiTool) as unknown as Array<Record<string, unknown>>, expected: task.expected, world: task.world },
  };
}

export const inspectDataset = (tasks: ToolsTask[]): string => tasks.map((t) => JSON.stringify(inspectSample(t))).join("\n") + (tasks.length ? "\n" : "");
