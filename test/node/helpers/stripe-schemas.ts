// JSON Schemas for the billing twin's response objects from two sources nobody here wrote: the trimmed
// component schemas of Stripe's published OpenAPI document (test/fixtures/stripe-openapi/), and, for the current
// API version (whose document is too large for the stored mirror), the object declarations the official `stripe`
// package generates from its own copy of the spec (node_modules/stripe/cjs/resources/*.d.ts), read with the
// TypeScript checker. Both become plain JSON Schema under $defs keyed by the object's name.
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

export type JsonSchema = Record<string, unknown>;
export interface SchemaSet {
  source: string;
  $defs: Record<string, JsonSchema>;
}

const ROOT = path.resolve(import.meta.dirname, "../../..");

/** OpenAPI 3.0 to JSON Schema: `nullable` becomes a null alternative, component refs become $defs refs. */
function fromOpenApi(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(fromOpenApi);
  if (!node || typeof node !== "object") return node;
  const src = node as Record<string, unknown>;
  if (typeof src.$ref === "string") return { $ref: src.$ref.replace("#/components/schemas/", "#/$defs/") };
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(src)) if (k !== "nullable") out[k] = fromOpenApi(v);
  if (src.nullable === true) {
    if (Array.isArray(out.enum)) out.enum = [...(out.enum as unknown[]), null];
    return { anyOf: [out, { type: "null" }] };
  }
  return out;
}

export function openApiSchemas(file: string): SchemaSet {
  const doc = JSON.parse(readFileSync(path.join(ROOT, "test/fixtures/stripe-openapi", file), "utf8")) as { source: { commit: string; api_version: string }; schemas: Record<string, unknown> };
  const $defs: Record<string, JsonSchema> = {};
  for (const [name, s] of Object.entries(doc.schemas)) $defs[name] = fromOpenApi(s) as JsonSchema;
  return { source: `stripe/openapi@${doc.source.commit.slice(0, 8)} (API ${doc.source.api_version})`, $defs };
}

/** Every interface in the package's resource declarations that carries an `object` literal, keyed like the spec's components. */
export function declaredSchemas(): SchemaSet {
  const dir = path.join(ROOT, "node_modules/stripe/cjs/resources");
  const files = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".d.ts")).map((f) => path.join(dir, f));
  const program = ts.createProgram(files, { strict: true, noEmit: true, skipLibCheck: true });
  const checker = program.getTypeChecker();
  const $defs: Record<string, JsonSchema> = {};
  const named = new Map<ts.Type, string>();

  // Roots first, so a reference from one resource to another is a $ref by the other's object name.
  for (const f of files) {
    if (path.dirname(f) !== dir) continue; // namespaced resources (TestHelpers, Billing...) are not served
    const sf = program.getSourceFile(f);
    if (!sf) continue;
    for (const st of sf.statements) {
      if (!ts.isInterfaceDeclaration(st)) continue;
      const objectProp = st.members.find((m) => ts.isPropertySignature(m) && m.name.getText(sf) === "object");
      const lit = objectProp && ts.isPropertySignature(objectProp) && objectProp.type && ts.isLiteralTypeNode(objectProp.type) && ts.isStringLiteral(objectProp.type.literal) ? objectProp.type.literal.text : null;
      if (!lit) continue;
      const name = st.name.text.startsWith("Deleted") ? `deleted_${lit}` : lit;
      if (named.has(checker.getTypeAtLocation(st.name))) continue;
      if ([...named.values()].includes(name)) continue;
      named.set(checker.getTypeAtLocation(st.name), name);
    }
  }

  let anon = 0;
  // Namespaced resources reuse root names (Issuing's Dispute.Evidence is not the Dispute.Evidence served): their
  // nested hashes keep the folder they were declared in.
  const qualifiedName = (sym: ts.Symbol): string => {
    const m = /^"([^"]*)"\.(.*)$/.exec(checker.getFullyQualifiedName(sym));
    if (!m) return checker.getFullyQualifiedName(sym);
    const folder = path.relative(dir, path.dirname(m[1]));
    return folder ? `${folder.split(path.sep).join("/")}:${m[2]}` : m[2];
  };
  const convert = (t: ts.Type): JsonSchema => {
    if (t.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return {};
    if (t.flags & ts.TypeFlags.Null) return { type: "null" };
    if (t.flags & ts.TypeFlags.StringLiteral) return { const: (t as ts.StringLiteralType).value };
    if (t.flags & ts.TypeFlags.NumberLiteral) return { const: (t as ts.NumberLiteralType).value };
    if (t.flags & ts.TypeFlags.BooleanLiteral) return { const: checker.typeToString(t) === "true" };
    if (t.flags & ts.TypeFlags.String) return { type: "string" };
    if (t.flags & ts.TypeFlags.Number) return { type: "number" };
    if (t.flags & ts.TypeFlags.Boolean) return { type: "boolean" };
    if (t.isUnion()) {
      const parts = t.types.filter((m) => !(m.flags & ts.TypeFlags.Undefined));
      const hasTrue = parts.some((m) => m.flags & ts.TypeFlags.BooleanLiteral && checker.typeToString(m) === "true");
      const hasFalse = parts.some((m) => m.flags & ts.TypeFlags.BooleanLiteral && checker.typeToString(m) === "false");
      const rest = parts.filter((m) => !(hasTrue && hasFalse && m.flags & ts.TypeFlags.BooleanLiteral));
      const lits = rest.filter((m) => m.flags & ts.TypeFlags.StringLiteral).map((m) => (m as ts.StringLiteralType).value);
      const others = rest.filter((m) => !(m.flags & ts.TypeFlags.StringLiteral)).map(convert);
      const any: JsonSchema[] = [...(lits.length ? [{ enum: lits }] : []), ...(hasTrue && hasFalse ? [{ type: "boolean" }] : []), ...others];
      return any.length === 1 ? any[0] : { anyOf: any };
    }
    // `string & {}` (an open enum's "other" arm) is a string.
    if (t.isIntersection()) return t.types.some((m) => m.flags & ts.TypeFlags.String) ? { type: "string" } : {};
    if (checker.isArrayType(t)) return { type: "array", items: convert(checker.getTypeArguments(t as ts.TypeReference)[0]) };
    const root = named.get(t);
    if (root) return { $ref: `#/$defs/${root}` };
    const sym = t.getSymbol() ?? t.aliasSymbol;
    if (sym?.getName() === "Decimal") return { type: "string" }; // a decimal travels as a string
    if (t.getCallSignatures().length) return {};
    if (!(t.flags & ts.TypeFlags.Object)) return {};
    // Nested hashes get their own $defs entry (keyed by declaration), which also ends any recursion.
    const args = (t as ts.TypeReference).typeArguments ?? t.aliasTypeArguments;
    // A generic (ApiList<T>) is one entry per instantiation.
    const generic = args?.length ? `<${args.map((a) => named.get(a) ?? checker.typeToString(a)).join(",")}>` : "";
    const key = sym && sym.getName() !== "__type" ? `${qualifiedName(sym)}${generic}` : `anonymous_${++anon}`;
    if (!$defs[key]) {
      $defs[key] = {};
      $defs[key] = objectSchema(t);
    }
    return { $ref: `#/$defs/${key}` };
  };
  const objectSchema = (t: ts.Type): JsonSchema => {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const p of checker.getPropertiesOfType(t)) {
      const decl = p.valueDeclaration ?? p.declarations?.[0];
      if (!decl) continue;
      properties[p.getName()] = convert(checker.getTypeOfSymbolAtLocation(p, decl));
      if (!(p.flags & ts.SymbolFlags.Optional)) required.push(p.getName());
    }
    const index = checker.getIndexInfosOfType(t)[0];
    const out: JsonSchema = { type: "object", properties, required };
    if (index) out.additionalProperties = convert(index.type);
    return out;
  };
  for (const [t, name] of named) $defs[name] = objectSchema(t);
  const version = /ApiVersion = '([^']+)'/.exec(readFileSync(path.join(ROOT, "node_modules/stripe/cjs/apiVersion.js"), "utf8"))?.[1] ?? "?";
  const pkg = (JSON.parse(readFileSync(path.join(ROOT, "node_modules/stripe/package.json"), "utf8")) as { version: string }).version;
  return { source: `stripe@${pkg} declarations (API ${version})`, $defs };
}
