// Validates a comparison document against docs/schemas/compare.schema.json (Ajv, Node side only), so the
// comparison and its published schema cannot drift apart unnoticed.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import Ajv2020 from "ajv/dist/2020.js";
import type { ValidateFunction } from "ajv";

const SCHEMA_PATH = fileURLToPath(new URL("../../../docs/schemas/compare.schema.json", import.meta.url));

let compiled: ValidateFunction | null = null;

export function compareProblems(value: unknown): string[] {
  if (!compiled) compiled = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true }).compile(JSON.parse(readFileSync(SCHEMA_PATH, "utf8")) as object);
  if (compiled(value)) return [];
  return (compiled.errors ?? []).map((e) => `${e.instancePath || "/"}: ${e.message ?? e.keyword}`);
}

export function assertValidComparison(value: unknown): void {
  const problems = compareProblems(value);
  if (problems.length > 0) throw new Error(`comparison does not match docs/schemas/compare.schema.json:\n  ${problems.join("\n  ")}`);
}
