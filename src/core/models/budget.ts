// A hard spending limit for a run's model calls. Before a call is sent its worst case is reserved (its input
// at the input price and its whole max_tokens at the output price); a call whose reservation does not fit is
// never sent. When the answer arrives the reservation is replaced by what it cost. So the limit holds with
// calls in flight at once, and the run's spend never passes it whatever the models answer.
export interface Reservation {
  readonly micros: number;
}

/** Async so a hosted run can keep one budget across isolates (D1); the CLI keeps it in memory. */
export interface Budget {
  /** The limit, in micro-dollars. */
  readonly limitMicros: number;
  /** Null when `micros` more would pass the limit: the call must not be sent. */
  reserve(micros: number): Promise<Reservation | null>;
  /** Replaces a reservation by the call's real cost (0 for a call that failed before any answer). */
  settle(r: Reservation, actualMicros: number): Promise<void>;
  /** Settled spend so far. */
  spentMicros(): Promise<number>;
}

export class MemoryBudget implements Budget {
  private spent = 0;
  private reserved = 0;

  /**
   * `reserveAtMost`: a caller that knows what a call is likely to cost (a tools run's plan) reserves that instead of
   * the worst case, so a small cap still lets calls through; the call then settles on what it really cost.
   */
  constructor(
    readonly limitMicros: number,
    private readonly reserveAtMost: number = Infinity,
  ) {}

  async reserve(worst: number): Promise<Reservation | null> {
    const micros = Math.min(worst, this.reserveAtMost);
    if (this.spent + this.reserved + micros > this.limitMicros) return null;
    this.reserved += micros;
    return { micros };
  }

  async settle(r: Reservation, actualMicros: number): Promise<void> {
    this.reserved -= r.micros;
    this.spent += actualMicros;
  }

  async spentMicros(): Promise<number> {
    return this.spent;
  }
}

/**
 * A call's worst case before it is sent: its request text at about three characters a token (an over-estimate
 * for English and JSON, on purpose) plus every output token it may use.
 */
export function worstCaseTokens(requestChars: number, maxTokens: number): { input_tokens: number; output_tokens: number } {
  return { input_tokens: Math.ceil(requestChars / 3), output_tokens: maxTokens };
}
