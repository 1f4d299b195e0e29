// What a tools world is seeded with: the block of tools it offers (as imported), and one task's plan: the writes
// that solve it (each moving a record of the store), the values reads must hand over, the reads a write needs
// first, planned faults and the call limit. Validated like every seed part; built by the task generator.
import { z } from "zod";

const json = z.record(z.string(), z.unknown());

export const toolCall = z.strictObject({ name: z.string().min(1), arguments: json });
export type ToolCall = z.infer<typeof toolCall>;

export const toolDefinition = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  title: z.string().optional(),
  description: z.string(),
  inputSchema: z.looseObject({ type: z.literal("object") }),
  outputSchema: z.looseObject({ type: z.literal("object") }).optional(),
  /** (OpenAPI) the error bodies the document declares, by status: failures are answered in that shape. */
  errorSchemas: z.partialRecord(z.enum(["404", "409", "422", "503"]), z.looseObject({ type: z.literal("object") })).optional(),
  effect: z.enum(["read", "write", "unknown"]),
});

export const expectedWrite = z.strictObject({
  /** The record the write moves from pending to done. */
  record: z.string().regex(/^rec_[A-Za-z0-9]+$/),
  name: z.string(),
  /** The checked arguments, compared exactly. */
  arguments: json,
  /** Arguments the request states but nobody checks (free text). */
  unchecked: z.array(z.string()).default([]),
});
export type ExpectedWrite = z.infer<typeof expectedWrite>;

export const delivery = z.strictObject({
  /** The read (exact arguments) whose answer carries the value. */
  call: toolCall,
  /** Where in the answer: `id`, `order.id`, `orders[].order_id` (every item). */
  path: z.string().min(1),
  value: z.union([z.string(), z.number(), z.boolean()]),
});
export type Delivery = z.infer<typeof delivery>;

export const toolsWorldBlock = z.strictObject({
  set: z.strictObject({ name: z.string(), format: z.enum(["openai", "mcp", "openapi"]), sha256: z.string().regex(/^[0-9a-f]{64}$/) }),
  /** Mixed into every draw, so two seeds of one task give different but repeatable answers. */
  draw_seed: z.number().int().nonnegative().default(0),
  definitions: z.array(toolDefinition).min(1),
  task: z.strictObject({
    id: z.string(),
    writes: z.array(expectedWrite).default([]),
    deliveries: z.array(delivery).default([]),
    /** A write (by record) answers not_ready until this read has been made. */
    prerequisites: z.array(z.strictObject({ record: z.string(), read: toolCall })).default([]),
    /** The nth call (1-based) of a tool answers unavailable; the same call then works. */
    faults: z.array(z.strictObject({ name: z.string(), nth: z.number().int().positive() })).default([]),
  }),
  /** Calls past this are refused (the episode is graded turn_limit). */
  max_calls: z.number().int().positive().default(32),
});
export type ToolsWorldBlock = z.infer<typeof toolsWorldBlock>;
