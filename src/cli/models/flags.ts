// The flags of a model client a command makes (the judge's, the built-in agent's prices): one wording and one
// check for each, whichever command takes them.
import { flag, type FlagDef, type FlagDefs } from "../flags";

export const MODEL_PRICES_FLAG: FlagDef = { kind: "value", placeholder: "F", help: "token prices over the shipped table (default: $WORLDS_MODEL_PRICES)" };

/** The judge's endpoint, timeout and prices: `evals check|run` and passk / `judge check` word the rest their own way. */
export const JUDGE_CLIENT_FLAG_DEFS: FlagDefs = {
  "judge-base-url": { kind: "value", placeholder: "URL", help: "the judge's endpoint (default: $OPENAI_BASE_URL / $ANTHROPIC_BASE_URL, else the provider's)" },
  "judge-timeout": { kind: "value", placeholder: "S", help: "seconds per judge request before it is retried (default: 60)" },
  "model-prices": MODEL_PRICES_FLAG,
};

/** With `--no-cache`, whose help each judge words for what it caches. */
export const JUDGE_CLIENT_FLAG_SHAPE = {
  "judge-base-url": flag.url().optional(),
  "judge-timeout": flag.seconds().optional(),
  "model-prices": flag.text().optional(),
  "no-cache": flag.switch(),
};
