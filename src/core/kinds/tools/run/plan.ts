// What a hosted tools run keeps in R2 in place of an account run's seed: the generated tasks (each carries its
// own world block) and the clock their worlds run on. Written once under its content hash, read by every
// episode of the run; checked on the way back in, like any stored seed. A task's arm is checked against the names
// the generators give (a form, or a dial's `armName` at the task's own level), not a list of its own.
import { z } from "zod";
import { armName, DIALS } from "../dials/catalog";
import { toolsWorldBlock } from "../world-block";
import { FORMS, type ToolsTask } from "../tasks/generate";

export const TOOLS_PLAN_VERSION = 1;

const json = z.record(z.string(), z.unknown());

const storedTask = z
  .looseObject({
    id: z.string().min(1),
    arm: z.string().min(1),
    dial: z.strictObject({ name: z.enum(DIALS), level: z.number().int().nonnegative(), label: z.string() }).optional(),
    history: z.strictObject({ calls: z.array(z.strictObject({ name: z.string().min(1), arguments: json, result: json })), tokens: z.number().int().nonnegative() }).optional(),
    request: z.string(),
    world: toolsWorldBlock,
  })
  .superRefine((t, ctx) => {
    if (!t.dial) {
      if (!(FORMS as readonly string[]).includes(t.arm)) ctx.addIssue({ code: "custom", path: ["arm"], message: `'${t.arm}' is neither a task form (${FORMS.join(", ")}) nor a dial's arm (a dial's task names its dial)` });
      return;
    }
    const named = armName(t.dial.name, t.dial.level);
    if (t.arm !== named) ctx.addIssue({ code: "custom", path: ["arm"], message: `the ${t.dial.name} dial at level ${t.dial.level} is the arm '${named}', not '${t.arm}'` });
  });

export const toolsRunPlan = z.strictObject({
  kind: z.literal("tools"),
  version: z.literal(TOOLS_PLAN_VERSION),
  set: z.strictObject({ name: z.string(), sha256: z.string().regex(/^[0-9a-f]{64}$/) }),
  clock: z.string(),
  tasks: z.array(storedTask).min(1),
});

export interface ToolsRunPlan {
  kind: "tools";
  version: typeof TOOLS_PLAN_VERSION;
  set: { name: string; sha256: string };
  clock: string;
  tasks: ToolsTask[];
}

/** A stored plan read back: the same tasks the run was created with (their blocks validated again). */
export function parseToolsRunPlan(doc: unknown): { ok: true; plan: ToolsRunPlan } | { ok: false; message: string } {
  const parsed = toolsRunPlan.safeParse(doc);
  if (!parsed.success) return { ok: false, message: parsed.error.issues.slice(0, 3).map((i) => `${i.path.join(".")}: ${i.message}`).join("; ") };
  // The looser task fields (expected calls, seed, index) are the generator's own output, stored as written.
  return { ok: true, plan: parsed.data as unknown as ToolsRunPlan };
}
