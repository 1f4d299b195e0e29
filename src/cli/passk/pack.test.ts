import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { packageRoot } from "../paths";
import { packName } from "./pack";

const sha = (p: string) => createHash("sha256").update(readFileSync(p)).digest("hex");
const dir = mkdtempSync(join(tmpdir(), "worlds-pack-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const refunds = join(packageRoot(), "packs", "refunds.yaml");

describe("packName", () => {
  it("names a pack run from packs/, however the path is written", () => {
    expect(packName(refunds, sha(refunds))).toBe("refunds");
    expect(packName(relative(process.cwd(), refunds), sha(refunds))).toBe("refunds");
  });

  it("names an unchanged copy of a pack, and not an edited one or the user's own file", () => {
    const copy = join(dir, "tasks.yaml");
    copyFileSync(refunds, copy);
    expect(packName(copy, sha(copy))).toBe("refunds");
    writeFileSync(copy, readFileSync(refunds, "utf8") + "\n# edited\n");
    expect(packName(copy, sha(copy))).toBeNull();
  });
});
