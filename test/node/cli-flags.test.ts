import { describe, expect, it } from "vitest";
import { z } from "zod";
import { flag, FlagError, parseArgs, type FlagDefs } from "../../src/cli/flags";
import { splitSql } from "../../src/cli/server/migrations";
import { createLimiter } from "../../src/cli/agent/limiter";

const DEFS: FlagDefs = {
  runs: { kind: "value", help: "", short: "k" },
  task: { kind: "list", help: "" },
  json: { kind: "switch", help: "" },
  mode: { kind: "value", help: "" },
};
const SCHEMA = z.strictObject({ runs: flag.int(1, 100).optional(), task: flag.list().optional(), json: flag.switch(), mode: flag.oneOf(["isolated", "shift"]).optional() });
const parse = (argv: string[]) => parseArgs("passk", argv, DEFS, SCHEMA);
const message = (argv: string[]) => {
  try {
    parse(argv);
  } catch (e) {
    if (e instanceof FlagError) return e.message;
    throw e;
  }
  return null;
};

describe("flag parser", () => {
  it("parses values, =values, short aliases, lists, switches and the command after --", () => {
    const r = parse(["--runs=3", "--task", "A", "--task", "B", "--json", "--", "node", "agent.mjs", "--runs", "9"]);
    expect(r.flags).toEqual({ runs: 3, task: ["A", "B"], json: true });
    expect(r.command).toEqual(["node", "agent.mjs", "--runs", "9"]);
    expect(parse(["-k", "2"]).flags.runs).toBe(2);
    expect(parse([]).command).toBeNull();
  });

  it("names the flag in every error", () => {
    expect(message(["--rusn", "3"])).toBe("unknown option '--rusn'. Did you mean '--runs'?");
    expect(message(["--runs"])).toBe("--runs needs a value.");
    expect(message(["--runs", "--json"])).toBe("--runs needs a value.");
    expect(message(["--runs", "abc"])).toBe("--runs must be a whole number (got 'abc').");
    expect(message(["--runs", "0"])).toBe("--runs must be at least 1 (got '0').");
    expect(message(["--mode", "both"])).toBe("--mode must be one of isolated, shift (got 'both').");
    expect(message(["--json=yes"])).toBe("--json takes no value (got 'yes').");
    expect(message(["--runs", "1", "--runs", "2"])).toBe("--runs was given twice ('1' and '2').");
    expect(message(["node", "agent.mjs"])).toMatch(/unexpected argument 'node'.*after '--'/);
  });
});

describe("migration splitting", () => {
  it("splits drizzle breakpoints and plain semicolons, not those inside strings or comments", () => {
    expect(splitSql("CREATE TABLE a (x text);\n--> statement-breakpoint\nCREATE INDEX i ON a (x);")).toEqual(["CREATE TABLE a (x text)", "CREATE INDEX i ON a (x)"]);
    expect(splitSql("INSERT INTO a VALUES ('x;y'); -- a; comment\nCREATE TABLE b (y text);\n")).toEqual(["INSERT INTO a VALUES ('x;y')", "-- a; comment\nCREATE TABLE b (y text)"]);
    expect(splitSql("-- only a comment\n")).toEqual([]);
  });
});

describe("concurrency limiter", () => {
  it("never runs more than n at once and runs everything", async () => {
    const limit = createLimiter(3);
    let active = 0;
    let peak = 0;
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        limit(async () => {
          active++;
          peak = Math.max(peak, active);
          await new Promise((r) => setTimeout(r, 5 + (i % 3)));
          active--;
          return i;
        }),
      ),
    );
    expect(peak).toBe(3);
    expect(results).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(() => createLimiter(0)).toThrow(/at least|>= 1/);
  });
});
