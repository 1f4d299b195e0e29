// Values drawn from a schema: free text within its length bounds never starts or ends with a space (a request
// states it, and an agent that trims it would otherwise miss the goal for a reason that is not its own).
import { describe, expect, it } from "vitest";
import { keyedDraw } from "./draw";
import { makeString } from "./value";

describe("drawn strings", () => {
  it("respect their bounds and have no leading or trailing space", () => {
    for (let i = 0; i < 2000; i++)
      for (const [min, max] of [[0, 4], [1, 5], [4, 4], [3, 6], [0, 12], [7, 3]]) {
        const v = makeString({ minLength: min, maxLength: max }, keyedDraw(`k${i}`), "note", 1_789_000_000);
        expect(v).toBe(v.trim());
        expect([...v].length).toBeLessThanOrEqual(max);
        expect([...v].length).toBeGreaterThanOrEqual(Math.min(Math.max(min, 1), max));
      }
  });
});
