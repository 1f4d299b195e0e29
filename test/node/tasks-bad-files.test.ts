// The bad-tasks-file corpus: every file in test/fixtures/tasks-bad/ must fail `tasks validate` and `tasks build`
// with exactly the problems in its .expected file, exit 2, and leave the directory untouched.
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runTasks } from "../../src/cli/commands/tasks";
import type { CliIo } from "../../src/cli/tasks/io";
import { badFixtureNames, FIXTURES, setUpBadCorpus } from "./tasks-fixtures";

function capture(cwd: string): CliIo & { stdout: () => string; stderr: () => string } {
  let out = "";
  let err = "";
  return { cwd, env: {}, out: (t) => void (out += t), err: (t) => void (err += t), stdout: () => out, stderr: () => err };
}

/** Every file under root with its size and modification time: any write shows up as a difference. */
function snapshot(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else out.push(`${relative(root, p)} ${st.size} ${st.mtimeMs} ${(st.mode & 0o777).toString(8)}`);
    }
  };
  walk(root);
  return out;
}

let corpus: { root: string; dir: string };
beforeAll(() => {
  corpus = setUpBadCorpus();
});
afterAll(() => rmSync(corpus.root, { recursive: true, force: true }));

describe("the bad tasks files corpus", () => {
  it("holds at least fifty files, each paired with its expected problems", () => {
    const committed = readdirSync(join(FIXTURES, "tasks-bad"));
    const yamls = committed.filter((f) => f.endsWith(".yaml")).map((f) => f.slice(0, -5));
    const generated = Object.keys(JSON.parse(readFileSync(join(FIXTURES, "tasks-bad", "generated.json"), "utf8")) as object).map((f) => f.slice(0, -5));
    const expecteds = committed.filter((f) => f.endsWith(".expected")).map((f) => f.slice(0, -9));
    expect([...yamls, ...generated].sort()).toEqual(expecteds.sort());
    expect(expecteds.length).toBeGreaterThanOrEqual(50);
  });

  it("validate and build print exactly the expected problems, exit 2, and write nothing", async () => {
    const names = badFixtureNames(corpus.dir);
    expect(names.length).toBeGreaterThanOrEqual(50);
    const before = snapshot(corpus.root);
    const failures: string[] = [];
    for (const name of names) {
      const expected = readFileSync(join(FIXTURES, "tasks-bad", `${name}.expected`), "utf8");
      const v = capture(corpus.dir);
      const vcode = await runTasks(["validate", `${name}.yaml`], v);
      if (vcode !== 2 || v.stderr() !== expected || v.stdout() !== "") failures.push(`validate ${name}: exit ${vcode}\n--- expected\n${expected}--- got\n${v.stderr()}${v.stdout()}`);

      const b = capture(corpus.dir);
      const bcode = await runTasks(["build", `${name}.yaml`, "--out-seed", "out/seed.json", "--out-rubric", "out/rubric.json", "--rewrite"], b);
      const buildExpected = expected.replace(/(\d+ problems?)\n$/, "$1; nothing written\n");
      if (bcode !== 2 || b.stderr() !== buildExpected || b.stdout() !== "") failures.push(`build ${name}: exit ${bcode}\n--- expected\n${buildExpected}--- got\n${b.stderr()}${b.stdout()}`);
    }
    expect(failures).toEqual([]);
    expect(existsSync(join(corpus.dir, "out"))).toBe(false);
    expect(existsSync(join(corpus.dir, "tasks.build.json"))).toBe(false);
    expect(snapshot(corpus.root)).toEqual(before);
  });
});
