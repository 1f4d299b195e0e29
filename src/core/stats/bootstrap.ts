// The cluster bootstrap over tasks (Davison & Hinkley 1997, section 3.8; Field & Welsh 2007): the k episodes of a
// task share an agent and a ticket, so they are not independent draws, and resampling episodes would understate
// the spread. Resampling whole tasks with replacement keeps each task's episodes together; drawing the same task
// indexes for the base and the new run pairs the comparison by task. Percentile intervals, a keyed generator.
import type { Interval } from "./wilson";
import { keyedRng } from "./rng";

/** Resamples per interval: the percentile's Monte Carlo error is then about a tenth of the interval's width at 95%. */
export const BOOTSTRAP_RESAMPLES = 2000;
/** The key the comparison's and the gates' resamples are drawn with unless a caller gives another. */
export const BOOTSTRAP_KEY = "worlds.bootstrap/1";

/** B resamples of T task indexes each, drawn once and shared by every figure of one comparison. */
export interface Draws {
  tasks: number;
  resamples: number;
  indexes: Uint32Array;
}

export function drawTasks(tasks: number, resamples: number = BOOTSTRAP_RESAMPLES, key: string = BOOTSTRAP_KEY): Draws {
  if (!Number.isInteger(tasks) || tasks < 0) throw new RangeError(`drawTasks: tasks must be a non-negative integer, got ${tasks}`);
  if (!Number.isInteger(resamples) || resamples < 1) throw new RangeError(`drawTasks: resamples must be a positive integer, got ${resamples}`);
  // The key names the task count too, so a suite of 5 and one of 6 do not share a prefix of their streams.
  const rng = keyedRng(`${key}|tasks=${tasks}|resamples=${resamples}`);
  const indexes = new Uint32Array(tasks * resamples);
  if (tasks > 0) for (let i = 0; i < indexes.length; i++) indexes[i] = rng.below(tasks);
  return { tasks, resamples, indexes };
}

/** The statistic on each resample: the sum or the mean of the drawn tasks' values. */
export function resampled(values: readonly number[], draws: Draws, reduce: "sum" | "mean"): Float64Array {
  if (values.length !== draws.tasks) throw new RangeError(`resampled: ${values.length} values for draws over ${draws.tasks} tasks`);
  const out = new Float64Array(draws.resamples);
  const T = draws.tasks;
  for (let b = 0; b < draws.resamples; b++) {
    let s = 0;
    for (let j = 0; j < T; j++) s += values[draws.indexes[b * T + j]];
    out[b] = reduce === "mean" && T > 0 ? s / T : s;
  }
  return out;
}

/**
 * The two-sided percentile interval at `level` (Hyndman & Fan type 7 quantiles, R's default), so the figures can
 * be checked with quantile(x, c(0.025, 0.975)).
 */
export function percentileInterval(values: ArrayLike<number>, level = 0.95): Interval {
  if (values.length === 0) throw new RangeError("percentileInterval: no values");
  const sorted = Float64Array.from(values).sort();
  const tail = (1 - level) / 2;
  return { low: quantile7(sorted, tail), high: quantile7(sorted, 1 - tail) };
}

export function quantile7(sorted: ArrayLike<number>, q: number): number {
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}
