// Answers to repeated tool calls whose answer depends only on the tool and its arguments (a tools world's read
// tools: the simulator draws them from the world's block, never from what the episode did). The same call of an
// unchanged world is the same bytes; an agent repeats lookups, and working each one out again (schema check,
// canonical JSON, the drawn answer and its serialisation, a trace row holding it all) made a call slower than
// the account twin's cached read (bench/tools-call.mjs). Like the twin's read cache (read-cache.ts): one LRU per
// isolate, each entry under the world instance's random id and the store's generation, which every write moves.
import { BoundedLru } from "../../src/core/util/lru";

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
  private readonly instance = crypto.randomUUID();

  /** The key of a call: its tool and the arguments' text as traced. */
  static keyOf(name: string, argumentsText: string): string {
    return `${name}\u0000${argumentsText}`;
  }

  get(key: string, generation: number): Entry | null {
    return shared.get(this.slot(key, generation)) ?? null;
  }

  put(key: string, generation: number, requestId: string, text: string): void {
    // An answer naming its own call could not stand for another.
    if (text.length > MAX_ANSWER_CHARS || text.includes(requestId)) return;
    shared.set(this.slot(key, generation), { text, requestId }, text.length);
  }

  private slot(key: string, generation: number): string {
    return `${this.instance}\u0000${generation}\u0000${key}`;
  }
}
