import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildResults } from "../../core/results/build";
import { syntheticInput } from "../../core/results/synthetic.fixture";
import { duration, liveLine, progressView, REDRAW_MS, type EpisodeProgress } from "./progress";
import { checkOutputPaths, OutputPathError, writeFileAtomic, writeOutputs } from "./write";

function fakeStream(isTTY: boolean, columns = 200) {
  const chunks: string[] = [];
  return { chunks, stream: { isTTY, columns, write: (c: string) => chunks.push(c) } };
}

const ep = (done: number, total = 10, passed = done, graded = done): EpisodeProgress => ({
  done,
  total,
  passed,
  graded,
  last: { run: 1, tasks: ["ZD-1041"], world: "w_1", note: "passed" },
});

describe("progressView", () => {
  it("redraws one line in place on a terminal, throttled, always drawing the last episode", () => {
    let t = 0;
    const { chunks, stream } = fakeStream(true);
    const view = progressView(stream, () => t);
    t = 1000;
    view.episode(ep(1));
    t = 1000 + REDRAW_MS / 2;
    view.episode(ep(2)); // within the throttle window: skipped
    t = 1000 + REDRAW_MS;
    view.episode(ep(3));
    t = 1000 + REDRAW_MS + 1;
    view.episode(ep(10)); // the last one draws however soon it comes
    view.end();
    expect(chunks).toHaveLength(4);
    expect(chunks[0]).toBe("\r\x1b[2Kepisodes 1/10 · passed 1/1 · 1s elapsed · ETA 9s");
    expect(chunks[1]).toMatch(/^\r\x1b\[2Kepisodes 3\/10 /);
    expect(chunks[2]).toMatch(/episodes 10\/10 .* ETA 0s$/);
    expect(chunks[3]).toBe("\r\x1b[2K");
    expect(chunks.join("")).not.toContain("\n");
  });
  it("fits the terminal width", () => {
    const { chunks, stream } = fakeStream(true, 30);
    progressView(stream, () => 0).episode(ep(1));
    expect(chunks[0].replace("\r\x1b[2K", "")).toHaveLength(29);
  });
  it("prints one plain line per episode when not a terminal", () => {
    const { chunks, stream } = fakeStream(false);
    const view = progressView(stream, () => 0);
    view.episode(ep(1));
    view.episode(ep(2));
    view.end();
    expect(chunks).toEqual(["[1/10] run 1 · ZD-1041 · w_1 · passed\n", "[2/10] run 1 · ZD-1041 · w_1 · passed\n"]);
  });
  it("formats elapsed time and ETA", () => {
    expect(duration(42_400)).toBe("42s");
    expect(duration(185_000)).toBe("3m05s");
    expect(duration(3_720_000)).toBe("1h02m");
    expect(liveLine(ep(0), 0)).toBe("episodes 0/10 · passed 0/0 · 0s elapsed · ETA —");
    expect(liveLine(ep(5, 10, 3, 4), 60_000)).toBe("episodes 5/10 · passed 3/4 · 1m00s elapsed · ETA 1m00s");
  });
  it("shows no ETA until the first wave of concurrent episodes has finished, then the pace at that concurrency", () => {
    // 40 episodes of 10 s, 8 at a time: 50 s in all. The first finishes at 10 s; elapsed/done would say 6m30s.
    expect(liveLine(ep(1, 40), 10_000, 8)).toMatch(/ETA —$/);
    expect(liveLine(ep(7, 40), 10_000, 8)).toMatch(/ETA —$/);
    expect(liveLine(ep(8, 40), 10_000, 8)).toMatch(/ETA 40s$/);
    expect(liveLine(ep(2, 3), 10_000, 8)).toMatch(/ETA —$/); // fewer episodes than slots: all of them are the wave
    const { chunks, stream } = fakeStream(true);
    progressView(stream, () => 10_000, 8).episode(ep(1, 40));
    expect(chunks[0]).toMatch(/ETA —$/);
  });
});

describe("writeOutputs", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "worlds-out-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("writes the JSON, the report and the JUnit file, creating missing directories, leaving no temporary file", () => {
    const r = buildResults(syntheticInput());
    const flags = { "json-file": join(dir, "out", "r.json"), report: join(dir, "out", "r.html"), junit: join(dir, "j.xml") };
    expect(writeOutputs(r, flags)).toEqual([flags["json-file"], flags.report, flags.junit]);
    expect(JSON.parse(readFileSync(flags["json-file"], "utf8")).status).toBe("policy_failed");
    expect(readFileSync(flags.report, "utf8")).toMatch(/^<!doctype html>/);
    expect(readFileSync(flags.junit, "utf8")).toMatch(/^<\?xml/);
    expect(readdirSync(join(dir, "out")).sort()).toEqual(["r.html", "r.json"]);
  });
  it("replaces an existing file whole", () => {
    const p = join(dir, "x.json");
    writeFileSync(p, "old contents that are longer than the new ones");
    writeFileAtomic(p, "new");
    expect(readFileSync(p, "utf8")).toBe("new");
  });
  it("refuses two outputs on one path and a directory, before anything runs", () => {
    expect(() => checkOutputPaths({ "json-file": join(dir, "a"), junit: join(dir, ".", "a") })).toThrow(new OutputPathError(`--json-file and --junit both name ${join(dir, ".", "a")}; give each its own file`));
    mkdirSync(join(dir, "d"));
    expect(() => checkOutputPaths({ report: join(dir, "d") })).toThrow(/is a directory/);
    expect(() => checkOutputPaths({})).not.toThrow();
  });
  it("names the flag when a write fails and leaves no temporary file", () => {
    writeFileSync(join(dir, "file"), "");
    const r = buildResults(syntheticInput());
    expect(() => writeOutputs(r, { report: join(dir, "file", "r.html") })).toThrow(/^could not write --report .*file\/r\.html: /);
    expect(existsSync(join(dir, "file"))).toBe(true);
    expect(readdirSync(dir)).toEqual(["file"]);
  });
});
