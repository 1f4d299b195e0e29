// Answers to repeated tool calls whose answer depends only on the tool and its arguments (a tools world's read
// tools: the simulator draws them from the world's block, never from what the episode did). The same call of an
// unchanged world is the same bytes; an agent repeats lookups, and working each one out again (schema check,
// canonical JSON, the drawn answer and its serialisation, a trace row holding it all) made a call slower than
// the account twin's cached read (bench/tools-call.mjs). Kept like the twin's read cache: under the world
// instance and the store's generation (state-cache.ts).
import { BoundedLru } from "../../src/core/util/lru";
import { StateCache } from "../state-cache";

const shared = new BoundedLru<string, Entry>(1024, 8_000_000);
/** A larger answer is not kept: it would push out many others. */
const MAX_ANSWER_CHARS = 256_000;

interface Entry {
  /** The JSON surface's body: the result's text. */
  text: string;
  /** The call whose trace row holds the text; later answers' rows point at it. */
  requestId: string;
}

export class AnswerCache {
  private readonly entries = new StateCache(shared);

  /** The key of a call: its tool and the arguments' text as traced. */
  static keyOf(name: string, argumentsText: string): string {
    return `${name}\u0000${argumentsText}`;
  }

  get(key: string, generation: number): Entry | null {
    return this.entries.get(key, generation) ?? null;
  }

  put(key: string, generation: number, requestId: string, text: string): void {
    // An answer naming its own call could not stand for another.
    if (text.length > MAX_ANSWER_CHARS || text.includes(requestId)) return;
    this.entries.set(key, generation, { text, requestId }, text.length);
  }
}
