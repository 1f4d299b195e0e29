// Token counts for the history dial and the cost plan, with a real BPE tokenizer (o200k_base, the encoding of
// current OpenAI models) rather than a characters-per-token guess: a level of 600 tokens is 600 of the tokens a
// model is billed for. gpt-tokenizer is pure JavaScript, so Worker and Node count alike.
import { GptEncoding } from "gpt-tokenizer/GptEncoding";
import { tryConvertToString } from "gpt-tokenizer/utfUtil";
import ranksText from "gpt-tokenizer/data/o200k_base.tiktoken";

export const TOKENIZER = "o200k_base (gpt-tokenizer)";

// The ranks are read as text (a Text module in the Worker, wrangler.toml; text to the CLI's and the tests'
// bundlers) and the encoding built on the first count. gpt-tokenizer's own `encoding/o200k_base` entry carries
// them as a 2 MB JavaScript literal and builds its tables on import: the Worker compiled and built all of it at
// every start (docs/performance.md, issue 19), though only the history dial counts tokens.
let encoding: GptEncoding | undefined;

export function tokensOf(text: string): number {
  encoding ??= GptEncoding.getEncodingApi("o200k_base", () => ranksOf(ranksText));
  return encoding.countTokens(text);
}

/**
 * tiktoken's rank file (a line per token: its bytes in base64, its rank) as gpt-tokenizer's rank table: a token's
 * text where its bytes are UTF-8, its bytes otherwise (test/node/tokens.test.ts: the same table as its bundled one).
 */
export function ranksOf(text: string): (string | number[])[] {
  const ranks: (string | number[])[] = [];
  for (const line of text.split("\n")) {
    if (!line) continue;
    const space = line.indexOf(" ");
    const b64 = atob(line.slice(0, space));
    const bytes = new Uint8Array(b64.length);
    for (let i = 0; i < b64.length; i++) bytes[i] = b64.charCodeAt(i);
    // A decoder drops a leading byte-order mark, so those tokens keep their bytes, as gpt-tokenizer's table does.
    const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
    ranks[Number(line.slice(space + 1))] = (bom ? undefined : tryConvertToString(bytes)) ?? [...bytes];
  }
  return ranks;
}
