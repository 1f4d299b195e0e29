// The flags that say where a run's results go (`tools run`, `family gate`, `evals run`, passk): the results
// JSON file, the HTML report, JUnit XML, and the JSON on stdout. One shape, so every command checks them alike.
import { flag, type FlagDefs } from "../flags";

/** Their help as `tools run` and `family gate` word it; a command with more to say overrides one entry. */
export const OUTPUT_FLAG_DEFS: FlagDefs = {
  "json-file": { kind: "value", placeholder: "PATH", help: "write the results JSON here" },
  report: { kind: "value", placeholder: "PATH", help: "write the HTML report here" },
  junit: { kind: "value", placeholder: "PATH", help: "write JUnit XML here" },
  json: { kind: "switch", help: "print the results JSON instead of text" },
};

export const OUTPUT_FLAG_SHAPE = {
  "json-file": flag.text().optional(),
  report: flag.text().optional(),
  junit: flag.text().optional(),
  json: flag.switch(),
};
