// Answers that belong to one state of one world instance, shared by every world of the isolate and bounded as a
// whole (many worlds live in one isolate). The slot holds the instance's random id and the store's generation,
// which every write moves, so nothing is served from a state the world has left, nor to a later instance of the
// same world. The twin's read cache and the tools world's answer cache are the two users.
import { BoundedLru } from "../src/core/util/lru";

export class StateCache<E> {
  private readonly instance = crypto.randomUUID();

  /** `shared`: the isolate's LRU for this kind of answer (one per kind, every world's instance in it). */
  constructor(private readonly shared: BoundedLru<string, E>) {}

  get(key: string, generation: number): E | undefined {
    return this.shared.get(this.slot(key, generation));
  }

  set(key: string, generation: number, entry: E, size: number): void {
    this.shared.set(this.slot(key, generation), entry, size);
  }

  private slot(key: string, generation: number): string {
    return `${this.instance}\u0000${generation}\u0000${key}`;
  }
}
