// `tasks build --rewrite`: the file written back with the seed's own emails (and, for mapped requesters, the
// seed's names) in place of real ones, so CI can build it without the identity map. Edits go through the yaml
// Document API, so comments, key order and block scalars survive.
import { isScalar, isSeq, parseDocument } from "yaml";

export interface TaskRewrite {
  requester: string;
  /** Set when the requester was mapped and the task names one: the pseudonym's name replaces the real one. */
  requester_name: string | null;
  /** The seed's email for each listed decoy, in the file's order. */
  decoys: string[];
}

export interface RewriteResult {
  text: string;
  /** How many values changed; 0 means the file already carries the seed's identities. */
  changed: number;
}

export function rewriteIdentities(text: string, rewrites: ReadonlyArray<TaskRewrite>): RewriteResult {
  const doc = parseDocument(text, { uniqueKeys: true, schema: "core" });
  let changed = 0;
  const set = (path: Array<string | number>, value: string) => {
    const node = doc.getIn(path, true);
    if (isScalar(node)) {
      if (node.value !== value) (node.value = value), (changed += 1);
    } else if (node === undefined) return;
    else doc.setIn(path, value), (changed += 1);
  };
  rewrites.forEach((r, i) => {
    set(["tasks", i, "requester"], r.requester);
    if (r.requester_name !== null && doc.hasIn(["tasks", i, "requester_name"])) set(["tasks", i, "requester_name"], r.requester_name);
    const decoys = doc.getIn(["tasks", i, "decoys"], true);
    if (isSeq(decoys)) r.decoys.forEach((email, j) => set(["tasks", i, "decoys", j], email));
  });
  if (changed === 0) return { text, changed };
  // lineWidth 0: never fold long subjects or bodies onto new lines.
  return { text: doc.toString({ lineWidth: 0, flowCollectionPadding: false }), changed };
}
