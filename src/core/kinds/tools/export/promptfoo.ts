// The tasks as a promptfoo config (promptfooconfig.yaml): one test case per task, in the fields promptfoo's
// configuration reference documents. The conversation goes in `vars.messages` and the prompt is its JSON dump
// (promptfoo's documented chat-thread pattern); each test overrides the provider with the task's own tool block
// (`provider.config.tools`, OpenAI's format, which promptfoo converts for other providers); the assertions are
// the deterministic ones promptfoo has for tool calls: the calls fit the block's schemas, and the first turn
// calls the expected tools. promptfoo judges one turn; the whole episode is judged by `worlds tools run`.
import { z } from "zod";
import { openAiTool } from "../render";
import type { ToolsTask } from "../tasks/generate";
import { GENERATOR_VERSION } from "../tasks/generate";
import { firstTurnCalls, historyCalls, TOOLS_SYSTEM_PROMPT } from "./conversation";

export const DEFAULT_PROMPTFOO_PROVIDER = "openai:chat:gpt-4.1-mini";

const json = z.record(z.string(), z.unknown());
const openAiMessage = z.union([
  z.strictObject({ role: z.enum(["system", "user"]), content: z.string() }),
  z.strictObject({
    role: z.literal("assistant"),
    content: z.null(),
    tool_calls: z.array(z.strictObject({ id: z.string(), type: z.literal("function"), function: z.strictObject({ name: z.string(), arguments: z.string() }) })).min(1),
  }),
  z.strictObject({ role: z.literal("tool"), tool_call_id: z.string(), content: z.string() }),
]);
const openAiToolSchema = z.strictObject({ type: z.literal("function"), function: z.strictObject({ name: z.string(), description: z.string(), parameters: json }) });

/** The part of promptfoo's documented config (Config, Test Case, Assertion) this export writes, nothing more. */
export const promptfooConfigSchema = z.strictObject({
  description: z.string(),
  prompts: z.array(z.string()).min(1),
  providers: z.array(z.string()).min(1),
  tests: z
    .array(
      z.strictObject({
        description: z.string(),
        vars: z.strictObject({ messages: z.array(openAiMessage).min(2) }),
        provider: z.strictObject({ id: z.string(), config: z.strictObject({ tools: z.array(openAiToolSchema).min(1), tool_choice: z.literal("auto") }) }),
        assert: z.array(
          z.union([
            z.strictObject({ type: z.literal("is-valid-openai-tools-call") }),
            z.strictObject({ type: z.literal("tool-call-f1"), value: z.array(z.string()).min(1) }),
          ]),
        ),
        metadata: z.strictObject({
          worlds_task: z.string(),
          arm: z.string(),
          dial: z.string().nullable(),
          expected_calls: z.array(z.strictObject({ name: z.string(), arguments: json })),
          set_sha256: z.string(),
        }),
      }),
    )
    .min(1),
});
export type PromptfooConfig = z.infer<typeof promptfooConfigSchema>;

export function promptfooConfig(tasks: ToolsTask[], o: { provider?: string } = {}): PromptfooConfig {
  const provider = o.provider ?? DEFAULT_PROMPTFOO_PROVIDER;
  const set = tasks[0]?.world.set;
  return {
    description: `worlds tasks on your own tools: ${set?.name ?? "?"} (${set?.format ?? "?"}, sha256 ${set?.sha256.slice(0, 8) ?? "?"}), ${tasks.length} tasks made by generator ${GENERATOR_VERSION}; one turn judged here, the whole episode by worlds tools run`,
    prompts: ["{{ messages | dump }}"],
    providers: [provider],
    tests: tasks.map((task) => {
      const history = historyCalls(task);
      return {
        description: `${task.arm} ${task.id}: ${task.request.length > 120 ? `${task.request.slice(0, 117)}...` : task.request}`,
        vars: {
          messages: [
            { role: "system" as const, content: TOOLS_SYSTEM_PROMPT },
            { role: "user" as const, content: task.request },
            ...(history.length
              ? [
                  { role: "assistant" as const, content: null, tool_calls: history.map((c) => ({ id: c.id, type: "function" as const, function: { name: c.name, arguments: JSON.stringify(c.arguments) } })) },
                  ...history.map((c) => ({ role: "tool" as const, tool_call_id: c.id, content: JSON.stringify(c.result) })),
                ]
              : []),
          ],
        },
        provider: { id: provider, config: { tools: task.world.definitions.map(openAiTool), tool_choice: "auto" as const } },
        assert: [{ type: "is-valid-openai-tools-call" as const }, { type: "tool-call-f1" as const, value: [...new Set(firstTurnCalls(task).map((c) => c.name))] }],
        metadata: { worlds_task: task.id, arm: task.arm, dial: task.dial ? `${task.dial.name} ${task.dial.label}` : null, expected_calls: task.expected.calls, set_sha256: task.world.set.sha256 },
      };
    }),
  };
}
