// Writing a measured pass rate back into a tier's tier.yaml, in place: the entry keyed on (solver, model, k) is
// replaced or appended through the yaml Document API, so the file's comments and layout stay as written.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { isMap, isSeq, parseDocument, YAMLSeq } from "yaml";
import { TIER_FILE, type PassRate } from "../../core/families/schema";
import type { LoadedTier } from "./load";

export function recordPassRate(tier: LoadedTier, entry: PassRate): string {
  const path = join(tier.dir, TIER_FILE);
  const doc = parseDocument(tier.source.text);
  let seq = doc.get("pass_rates", true);
  if (!isSeq(seq)) {
    seq = new YAMLSeq();
    doc.set("pass_rates", seq);
  }
  const list = seq as YAMLSeq;
  // One measurement per line, in the schema's order, however the list was written before.
  list.flow = false;
  const { solver, model, k, value, date, run, results, results_sha256, forced } = entry;
  const node = doc.createNode({ solver, model, k, value, date, run, ...(results ? { results } : {}), results_sha256, ...(forced ? { forced } : {}) });
  (node as { flow?: boolean }).flow = true;
  const at = list.items.findIndex((it) => isMap(it) && it.get("solver") === entry.solver && it.get("model") === entry.model && it.get("k") === entry.k);
  if (at >= 0) list.items[at] = node;
  else list.items.push(node);
  const text = doc.toString({ lineWidth: 0, flowCollectionPadding: false });
  writeFileSync(path, text);
  return path;
}

/** Writes a generated seed's sha256 into the tier's seed reference, in place (`family validate --record-hashes`). */
export function recordSeedHash(tier: LoadedTier, sha256: string): string {
  const path = join(tier.dir, TIER_FILE);
  const doc = parseDocument(tier.source.text);
  doc.setIn(["seed", "sha256"], sha256);
  writeFileSync(path, doc.toString({ lineWidth: 0, flowCollectionPadding: false }));
  return path;
}
