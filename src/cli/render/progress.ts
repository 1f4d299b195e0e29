// Progress while episodes run: one line rewritten in place on a terminal (done/total, passed so far, elapsed,
// ETA); plain lines, one per episode, anywhere else (CI logs, pipes), on stderr so stdout stays the result.
export interface ProgressView {
  episode(p: { done: number; total: number; passed: number; graded: number; last: { run: number; tasks: string[]; world: string | null; note: string } }): void;
  /** Clears the live line before other output. */
  end(): void;
}

export function progressView(stream: NodeJS.WriteStream = process.stderr, now: () => number = Date.now): ProgressView {
  const started = now();
  const live = !!stream.isTTY;
  let shown = false;
  return {
    episode(p) {
      const elapsed = (now() - started) / 1000;
      if (live) {
        const eta = p.done > 0 ? ((elapsed / p.done) * (p.total - p.done)).toFixed(0) : "?";
        const line = `episodes ${p.done}/${p.total} · passed ${p.passed}/${p.graded} · ${elapsed.toFixed(0)} s elapsed · ETA ${eta} s`;
        stream.write(`\r\x1b[2K${line.slice(0, (stream.columns || 120) - 1)}`);
        shown = true;
      } else {
        stream.write(`[${p.done}/${p.total}] run ${p.last.run} · ${p.last.tasks.length > 3 ? `${p.last.tasks.length} tasks` : p.last.tasks.join(", ")} · ${p.last.world ?? "no world"} · ${p.last.note}\n`);
      }
    },
    end() {
      if (live && shown) stream.write("\r\x1b[2K");
      shown = false;
    },
  };
}
