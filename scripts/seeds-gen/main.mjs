// `npm run seeds:gen`: writes the starter library (seed, policy, rubric, packs) under the repository, or under
// --out DIR (check-generated regenerates into a temporary directory and compares byte for byte).
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { renderPack, renderPacksReadme, renderRubric, renderSeed } from "./emit.mjs";
import { PACKS, SEED_NAME, buildLibrary } from "./library.mjs";
import { policyMarkdown } from "./policy.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Every generated file: path relative to the output root -> contents. */
export function generatedFiles() {
  const library = buildLibrary();
  const files = {
    [`seeds/${SEED_NAME}.json`]: renderSeed(library.seed),
    "seeds/acme-policy.md": policyMarkdown(),
    [`rubrics/${SEED_NAME}.json`]: renderRubric(library.rubric),
    "packs/README.md": renderPacksReadme(library),
  };
  for (const pack of PACKS) files[`packs/${pack}.yaml`] = renderPack(library, pack);
  return files;
}

function main(argv) {
  const i = argv.indexOf("--out");
  const out = i >= 0 ? resolve(argv[i + 1] ?? "") : root;
  const files = generatedFiles();
  for (const [rel, text] of Object.entries(files)) {
    const path = join(out, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
  if (!argv.includes("--quiet")) console.log(`seeds:gen: wrote ${Object.keys(files).length} files under ${out}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
