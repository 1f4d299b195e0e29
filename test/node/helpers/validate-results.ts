// Validates a results document against the published schema (docs/schemas/results.schema.json) with Ajv.
// Node side only: Ajv compiles to code, which the Worker runtime forbids. Use it on every results object a test
// produces, so the schema and the builder cannot drift apart unnoticed.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import Ajv2020 from "ajv/dist/2020.js";
import type { ErrorObject, ValidateFunction } from "ajv";

const SCHEMA_PATH = fileURLToPath(new URL("../../../docs/schemas/results.schema.json", import.meta.url));

let compiled: ValidateFunction | null = null;

function validator(): ValidateFunction {
  if (!compiled) {
    const schema = JSON.parse(readFileSync(SCHEMA_PATH, "utf8")) as object;
    const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
    compiled = ajv.compile(schema);
  }
  return compiled;
}

/** Problems with `value` as a results document, one line each (`/crash_test/tasks/0/accuracy: must be <= 1`); empty when valid. */
export function resultsProblems(value: unknown): string[] {
  const validate = validator();
  if (validate(value)) return [];
  return (validate.errors ?? []).map(formatError);
}

/** Throws with every problem listed unless `value` is a valid results document. */
export function assertValidResults(value: unknown): void {
  const problems = resultsProblems(value);
  if (problems.length > 0) throw new Error(`results do not match docs/schemas/results.schema.json:\n  ${problems.join("\n  ")}`);
}

function formatError(e: ErrorObject): string {
  const extra = e.keyword === "additionalProperties" ? ` (${String((e.params as { additionalProperty?: string }).additionalProperty)})` : "";
  return `${e.instancePath || "/"}: ${e.message ?? e.keyword}${extra}`;
}
