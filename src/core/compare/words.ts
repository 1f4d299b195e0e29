// How the comparison's numbers read, the same in its text, its HTML and the reasons it gives.

/** A p-value people can read: two significant digits, and a floor instead of a string of zeros. */
export function formatP(p: number): string {
  if (p < 0.0001) return "< 0.0001";
  if (p >= 0.995) return "1";
  return String(Number(p.toPrecision(2)));
}

/** "2/3": successes over the trials that said something about the agent. */
export function ratio(s: { passed: number; trials: number }): string {
  return `${s.passed}/${s.trials}`;
}

/** A difference of rates in percentage points, signed: "−33 pts", "+10 pts", "0 pts". */
export function points(delta: number): string {
  const v = Math.round(delta * 100);
  return v === 0 ? "0 pts" : `${v > 0 ? "+" : "−"}${Math.abs(v)} pts`;
}
