// How an account world's tool is declared: its arguments as a zod schema (validated at the call, like a REST
// route's params) from which its plain JSON Schema is derived once, so the schema an agent reads and the check it
// meets never drift apart; and the twin request it stands for. No HTTP here: the sender runs the request.
import { z } from "zod";
import type { Store } from "../../store/store";
import type { JsonObjectSchema, ToolCallContext, ToolDefinition, ToolOutcome } from "../catalogue";
import { outcomeOf, type ServiceCall, type ServiceSender } from "../service-call";

export interface AccountTool {
  definition: ToolDefinition;
  run(ctx: ToolCallContext, args: Record<string, unknown>, send: ServiceSender): ToolOutcome;
}

interface Spec<S extends z.ZodType> {
  name: string;
  title: string;
  description: string;
  effect: "read" | "write";
  hints?: ToolDefinition["hints"];
  args: S;
  /** The twin request this call stands for; an outcome instead when the arguments cannot name one. */
  request: (args: z.output<S>, store: Store) => ServiceCall | ToolOutcome;
  /** Reshapes the twin's answer (default: the API's own object, as the twin answered it). */
  present?: (result: Record<string, unknown>, args: z.output<S>) => Record<string, unknown>;
}

export function accountTool<S extends z.ZodType>(spec: Spec<S>): AccountTool {
  const definition: ToolDefinition = {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    inputSchema: jsonSchemaOf(spec.args),
    effect: spec.effect,
    ...(spec.hints ? { hints: spec.hints } : {}),
  };
  return {
    definition,
    run(ctx, raw, send) {
      const parsed = spec.args.safeParse(raw);
      if (!parsed.success) return invalidArguments(spec.name, parsed.error);
      const req = spec.request(parsed.data, ctx.store);
      if ("ok" in req) return req;
      const outcome = outcomeOf(send(ctx, req));
      return outcome.ok && spec.present ? { ok: true, result: spec.present(outcome.result, parsed.data) } : outcome;
    },
  };
}

function invalidArguments(tool: string, error: z.ZodError): ToolOutcome {
  const issues = error.issues.slice(0, 5).map((i) => {
    const where = i.path.length ? i.path.join(".") : "arguments";
    return i.code === "unrecognized_keys" ? `${where}: unknown argument${i.keys.length > 1 ? "s" : ""} ${i.keys.join(", ")}` : `${where}: ${i.message}`;
  });
  return { ok: false, error: { code: "invalid_arguments", message: `${tool}: ${issues.join("; ")}` } };
}

/**
 * The arguments' JSON Schema, as an agent reads it: zod's draft 2020-12 output without the `$schema` line and
 * without the safe-integer bounds zod adds to every integer (noise to a model, and no twin amount comes near).
 */
export function jsonSchemaOf(schema: z.ZodType): JsonObjectSchema {
  const out = tidy(z.toJSONSchema(schema, { io: "input", unrepresentable: "throw" }), 0) as JsonObjectSchema;
  if (out.type !== "object") throw new Error("a tool's arguments must be an object schema");
  return out;
}

const SAFE = Number.MAX_SAFE_INTEGER;

/** Our own schemas are a few levels deep; the bound only keeps a mistake from recursing without end. */
function tidy(node: unknown, depth: number): unknown {
  if (depth > 16) throw new Error("tool argument schema nested too deep");
  if (Array.isArray(node)) return node.map((n) => tidy(n, depth + 1));
  if (!node || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === "$schema") continue;
    if ((k === "maximum" && v === SAFE) || (k === "minimum" && v === -SAFE)) continue;
    out[k] = tidy(v, depth + 1);
  }
  return out;
}

/** An object id as the twins write them; never a path (it is placed in one). */
export const objectId = (what: string) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_]{1,255}$/, `must be a ${what} id: letters, digits and underscores`)
    .describe(`The ${what}'s id.`);

export const limit = z.number().int().min(1).max(100).optional().describe("How many to return, 1 to 100 (default 10).");
export const startingAfter = z
  .string()
  .regex(/^[A-Za-z0-9_]{1,255}$/)
  .optional()
  .describe("For the next page: the id of the last object of the previous page (when has_more was true).");
export const idempotencyKey = z
  .string()
  .min(1)
  .max(255)
  .optional()
  .describe("Any string; the same key with the same arguments answers the first call's result instead of acting twice, so retries are safe.");

/** A path segment: an id with anything but [A-Za-z0-9_] escaped, so arguments can never reach another route. */
export const seg = (v: string | number) => encodeURIComponent(String(v));
