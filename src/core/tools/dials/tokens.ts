// Token counts for the history dial and the cost plan, with a real BPE tokenizer (o200k_base, the encoding of
// current OpenAI models) rather than a characters-per-token guess: a level of 600 tokens is 600 of the tokens a
// model is billed for. gpt-tokenizer is pure JavaScript with its ranks bundled, so Worker and Node count alike.
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";

export const TOKENIZER = "o200k_base (gpt-tokenizer)";

export function tokensOf(text: string): number {
  return countTokens(text);
}
