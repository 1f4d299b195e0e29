// Seeds bundled into the Worker (and read by the CLI from the same files). Add a seed here to serve it by name.
import acmeSmall from "../../seeds/acme-small.json";
import acmeProdLibrary from "../../seeds/acme-prod-library.json";

// In the built Worker each seed is a Text module, its JSON as a string (wrangler.toml's rule for seeds/*.json),
// parsed on its first use: compiled as a JavaScript literal inside the bundle, the runtime built all 2.7 MB of
// them at every start (docs/performance.md, issue 19). Bundlers that inline JSON (vitest, esbuild) hand the value.
const sources: Record<string, unknown> = {
  "acme-small": acmeSmall,
  "acme-prod-library": acmeProdLibrary,
};

export const BUNDLED_SEEDS: Record<string, unknown> = {};
for (const [name, source] of Object.entries(sources)) {
  let doc: unknown;
  Object.defineProperty(BUNDLED_SEEDS, name, { enumerable: true, get: () => (doc ??= typeof source === "string" ? (JSON.parse(source) as unknown) : source) });
}
