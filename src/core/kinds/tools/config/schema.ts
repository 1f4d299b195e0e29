// worlds/tools.yaml: the settings of a crash test on a team's own tools. Every setting has an init flag, unknown
// fields are errors, and paths are relative to the file itself.
import { z } from "zod";
import { DIALS } from "../dials/catalog";
import { RECIPE_NAMES } from "../dials/recipe-names";
import { FORMS, GENERATOR_VERSION, type Flow } from "../tasks/generate";

const FLOW = /^([A-Za-z0-9_.\-/{}]+?)\.([A-Za-z0-9_]+(?:\[\])?(?:\.[A-Za-z0-9_]+(?:\[\])?)*):([A-Za-z0-9_.\-/{}]+?)\.([A-Za-z0-9_]+)$/;

/** `get_order.id:refund_order.order_id`, `list_orders.orders[].order_id:refund_order.order_id` */
export function parseFlow(text: string): Flow | null {
  const m = FLOW.exec(text.trim());
  return m ? { from: m[1], field: m[2], to: m[3], param: m[4] } : null;
}

export const toolsConfig = z.strictObject({
  version: z.literal(1),
  /** The tool file, relative to this file. */
  file: z.string().min(1),
  format: z.enum(["auto", "openai", "mcp", "openapi"]).default("auto"),
  /** The set's name on reports (default: the file's name). */
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_. -]{0,63}$/, "1-64 letters, digits, spaces, dots, dashes or underscores"),
  read: z.array(z.string().min(1)).default([]),
  write: z.array(z.string().min(1)).default([]),
  /** Which of the file's tools (operations) to take: globs on names, tag:NAME, path:/v1/x*, or GET/POST...; read
   * before anything else in the file, and part of the digest every task id carries. */
  include: z.array(z.string().trim().min(1)).default([]),
  exclude: z.array(z.string().trim().min(1)).default([]),
  /** What a request says instead of the tool's description: {tool: "refund an order"}. */
  intents: z.record(z.string(), z.string().min(1)).default({}),
  flows: z
    .array(z.string().refine((s) => parseFlow(s) !== null, "a flow is FROM.FIELD:TO.PARAM, e.g. get_order.id:refund_order.order_id"))
    .default([]),
  /** The task forms to make (each an arm), and how many tasks each. */
  arms: z.array(z.enum(FORMS)).min(1).default(["call", "read-then-call"]),
  tasks_per_arm: z.number().int().min(1).max(500).default(10),
  seed: z.number().int().nonnegative().default(1),
  /** The world clock answers use (dates in simulated answers are drawn before it). */
  clock: z.string().datetime({ offset: true }).default("2026-09-15T12:00:00Z"),
  /** A recipe of dials (docs/tools.md); without it the tasks are the forms in `arms`. */
  measure: z
    .strictObject({
      preset: z.string().superRefine((p, ctx) => {
        if (p === "card") ctx.addIssue({ code: "custom", message: "card is not a recipe on your own tools (its tasks are the built-in ones); name one of " + [...RECIPE_NAMES, "custom"].join(", ") });
        else if (!(RECIPE_NAMES as string[]).includes(p) && p !== "custom") ctx.addIssue({ code: "custom", message: `no recipe '${p}': name one of ${[...RECIPE_NAMES, "custom"].join(", ")}` });
      }),
      /** custom only: the dials to measure, each at every level the set reaches. */
      dials: z.array(z.enum(DIALS)).default([]),
      controls: z
        .boolean()
        .default(false)
        .refine((c) => !c, "controls: true is refused on your own tools: no dial has a control arm there (every arm is read against its dial's first level)"),
    })
    .superRefine((m, ctx) => {
      if (m.preset !== "custom" && m.dials.length) ctx.addIssue({ code: "custom", path: ["dials"], message: `dials are chosen by the recipe ${m.preset}; list them only with preset: custom` });
      if (m.preset === "custom" && !m.dials.length) ctx.addIssue({ code: "custom", path: ["dials"], message: `preset: custom needs its dials, e.g. dials: [faults, history] (any of ${DIALS.join(", ")})` });
    })
    .optional(),
  generator_version: z
    .string()
    .refine((v) => v === GENERATOR_VERSION, `must be ${GENERATOR_VERSION}, the label of the generator that makes tasks on your own tools (or leave it out)`)
    .optional(),
});
export type ToolsConfig = z.infer<typeof toolsConfig>;
