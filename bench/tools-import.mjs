// Import and task generation for a 256-tool OpenAPI document (the largest set worlds accepts), against reading the
// same document's bytes (JSON.parse + canonical hashing of the text: the floor any import pays), in the same run.
// Prints p50 ms over the repetitions and the ratios. Usage: node bench/tools-import.mjs [--reps N]
import { percentile, fmt } from "./lib/server.mjs";
import { importCore } from "./lib/bundle-core.mjs";

const reps = Number(process.argv[process.argv.indexOf("--reps") + 1]) || 20;
const [toolset, generate, canonical] = await importCore(["src/core/kinds/tools/toolset.ts", "src/core/kinds/tools/tasks/generate.ts", "src/core/util/canonical.ts"]);

/** 128 resources, each with a GET (read) and a POST (write) taking a path id, a query bound and a JSON body. */
function openApi256() {
  const paths = {};
  for (let i = 0; i < 128; i++) {
    paths[`/things${i}/{thing_id}`] = {
      parameters: [{ name: "thing_id", in: "path", required: true, schema: { $ref: "#/components/schemas/ThingId" } }],
      get: { operationId: `getThing${i}`, summary: `Look up one thing of kind ${i}.`, responses: { 200: { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } } } } },
      post: {
        operationId: `updateThing${i}`,
        summary: `Update one thing of kind ${i}.`,
        parameters: [{ name: "dry", in: "query", schema: { type: "boolean" } }],
        requestBody: { required: true, content: { "application/json": { schema: { type: "object", required: ["status"], properties: { status: { type: "string", enum: ["open", "closed", "held"] }, amount: { type: "number", minimum: 0, maximum: 1000 }, note: { type: "string" } } } } } },
        responses: { 201: { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } } } },
      },
    };
  }
  return {
    openapi: "3.1.0",
    info: { title: "bench", version: "1" },
    paths,
    components: { schemas: { ThingId: { type: "string", pattern: "^th_[A-Za-z0-9]{8}$" }, Thing: { type: "object", properties: { id: { $ref: "#/components/schemas/ThingId" }, status: { type: "string" }, updated: { type: "string", format: "date-time" } } } } },
  };
}

const text = JSON.stringify(openApi256(), null, 2);
const clockUnix = Date.parse("2026-09-15T12:00:00Z") / 1000;
async function time(fn) {
  const out = [];
  for (let i = 0; i < reps + 2; i++) {
    const t0 = performance.now();
    await fn();
    if (i >= 2) out.push(performance.now() - t0);
  }
  return percentile(out.sort((a, b) => a - b), 50);
}

const floor = await time(async () => canonical.sha256Hex(canonical.canonicalJson(JSON.parse(text))));
let set;
const imp = await time(async () => (set = await toolset.importToolSet(text, { name: "bench" })));
const gen = await time(async () => {
  for (const arm of ["call", "read-then-call"]) await generate.generateTasks(set, { arm, count: 10, seed: 1, clockUnix });
});
console.log(`tools import + generate, 256-tool OpenAPI document (${(text.length / 1024).toFixed(0)} KB), ${reps} reps, p50`);
console.log(`  read the bytes (parse + canonical sha256)   ${fmt(floor, 2)} ms  (baseline)`);
console.log(`  import (${toolset.countsLine(set)})   ${fmt(imp, 2)} ms  (${fmt(imp / floor, 1)}x baseline)`);
console.log(`  generate 2 forms x 10 tasks                   ${fmt(gen, 2)} ms  (${fmt(gen / floor, 1)}x baseline)`);
