// Progress while episodes run, on stderr so stdout stays the result. On a terminal: one line redrawn in place
// (episodes done/total, keyed trials passed so far, elapsed, ETA), at most every REDRAW_MS so a thousand fast
// episodes do not flood the terminal; the last episode always draws. Elsewhere (CI logs, pipes): one plain line
// per episode, since a log cannot be redrawn and every line is worth keeping.

export const REDRAW_MS = 100;

export interface EpisodeProgress {
  done: number;
  total: number;
  /** Keyed trials passed so far, and keyed trials graded so far. */
  passed: number;
  graded: number;
  last: { run: number; tasks: string[]; world: string | null; note: string };
}

export interface ProgressView {
  episode(p: EpisodeProgress): void;
  /** Clears the live line (call before printing anything else). */
  end(): void;
}

export interface ProgressStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/**
 * `concurrency` is how many episodes run at once. Until that many have finished the first wave is still running,
 * and elapsed/done would count one episode's whole wall time per episode (at concurrency 8, an ETA eight times
 * too long), so no ETA is shown until then; after that, elapsed/done is the real pace at this concurrency.
 */
export function progressView(stream: ProgressStream = process.stderr, now: () => number = Date.now, concurrency = 1): ProgressView {
  const started = now();
  const live = stream.isTTY === true;
  let lastDraw = -Infinity;
  let shown = false;
  return {
    episode(p) {
      const t = now();
      if (!live) {
        stream.write(plainLine(p) + "\n");
        return;
      }
      if (p.done < p.total && t - lastDraw < REDRAW_MS) return;
      lastDraw = t;
      const line = liveLine(p, t - started, concurrency);
      const width = Math.max(20, (stream.columns ?? 120) - 1);
      stream.write(`\r\x1b[2K${line.length > width ? line.slice(0, width - 1) + "…" : line}`);
      shown = true;
    },
    end() {
      if (live && shown) stream.write("\r\x1b[2K");
      shown = false;
    },
  };
}

export function liveLine(p: EpisodeProgress, elapsedMs: number, concurrency = 1): string {
  const firstWave = Math.max(1, Math.min(concurrency, p.total));
  const eta = p.done >= p.total ? "0s" : p.done >= firstWave ? duration((elapsedMs / p.done) * (p.total - p.done)) : "—";
  return `episodes ${p.done}/${p.total} · passed ${p.passed}/${p.graded} · ${duration(elapsedMs)} elapsed · ETA ${eta}`;
}

export function plainLine(p: EpisodeProgress): string {
  const tasks = p.last.tasks.length > 3 ? `${p.last.tasks.length} tasks` : p.last.tasks.join(", ");
  return `[${p.done}/${p.total}] run ${p.last.run} · ${tasks} · ${p.last.world ?? "no world"} · ${p.last.note}`;
}

/** 42s, 3m05s, 1h02m. */
export function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
}
