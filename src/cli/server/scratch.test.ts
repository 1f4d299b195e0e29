import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { scratchStorage, sweepAbandoned } from "./scratch";

const root = () => mkdtempSync(join(tmpdir(), "scratch-root-"));

describe("scratch storage for a server without --persist", () => {
  it("makes a directory named for this process and removes it, once", () => {
    const r = root();
    const s = scratchStorage(r);
    expect(s).not.toBeNull();
    expect(s!.dir.startsWith(join(r, `worlds-scratch-${process.pid}-`))).toBe(true);
    writeFileSync(join(s!.dir, "world.sqlite"), "x");
    s!.remove();
    s!.remove();
    expect(existsSync(s!.dir)).toBe(false);
  });

  it("sweeps what a killed process left behind, and nothing of a live one", () => {
    const r = root();
    // A pid that has exited: a child we waited for.
    const dead = spawnSync(process.execPath, ["-e", ""]).pid!;
    mkdirSync(join(r, `worlds-scratch-${dead}-abc`));
    mkdirSync(join(r, `worlds-scratch-${process.pid}-def`));
    mkdirSync(join(r, "unrelated"));
    sweepAbandoned(r);
    expect(readdirSync(r).sort()).toEqual(["unrelated", `worlds-scratch-${process.pid}-def`]);
  });

  it("falls back to Miniflare's temp dir where there is no such filesystem, or too little room on it", () => {
    expect(scratchStorage(join(tmpdir(), "no-such-ram-dir"))).toBeNull();
    expect(scratchStorage(root(), Number.MAX_SAFE_INTEGER)).toBeNull();
  });
});
