// Structured answers from a zod schema: the JSON Schema sent to the provider is derived from the same schema
// the answer is validated with on arrival, so the two cannot drift. Validation is zod's (no code generation),
// which is what lets it run inside the Worker.
import { z } from "zod";
import type { Decoded } from "./wire/common";
import type { JsonSchema, OutputSpec } from "./types";

export interface Structured<T> {
  output: OutputSpec;
  validate(value: unknown): Decoded<T>;
}

/**
 * `schema` should be written for OpenAI's strict mode (every property required, objects closed), which also
 * suits Anthropic's tool input; z.strictObject with nullable rather than optional fields does it.
 */
export function structured<S extends z.ZodType>(name: string, schema: S, opts: { description?: string; via?: OutputSpec["via"] } = {}): Structured<z.infer<S>> {
  const json = z.toJSONSchema(schema, { target: "draft-2020-12" }) as JsonSchema;
  delete json.$schema;
  return {
    output: { name, ...(opts.description ? { description: opts.description } : {}), schema: json, ...(opts.via ? { via: opts.via } : {}) },
    validate(value) {
      const r = schema.safeParse(value);
      if (r.success) return { ok: true, value: r.data as z.infer<S> };
      const issues = r.error.issues.slice(0, 4).map((i) => `${i.path.length ? i.path.join(".") : "(the answer)"}: ${i.message}`);
      return { ok: false, message: `the answer does not match the ${name} schema: ${issues.join("; ")}` };
    },
  };
}
