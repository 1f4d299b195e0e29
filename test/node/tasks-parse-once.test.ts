// A tasks file is parsed as YAML once per command: the check that refuses a file on a team's own tools (a tools
// settings file, a generated task row) reuses the compile's parse instead of parsing the text first as settings.
// yaml's two entry points are counted; the base code called both for every tasks file. (A generated task row's
// refusal is a JSON check on the first line, before any YAML: test/node/tools-doctor-verify.test.ts.)
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";

const parses = vi.hoisted(() => ({ count: 0 }));
vi.mock("yaml", async (importOriginal) => {
  const yaml = await importOriginal<typeof import("yaml")>();
  return {
    ...yaml,
    parse: (...args: Parameters<typeof yaml.parse>) => ((parses.count += 1), yaml.parse(...args)),
    parseDocument: (...args: Parameters<typeof yaml.parseDocument>) => ((parses.count += 1), yaml.parseDocument(...args)),
  };
});

const { runTasks } = await import("../../src/cli/commands/tasks");
const { loadTasks } = await import("../../src/cli/passk/load");
const { ownToolsRefusal } = await import("../../src/cli/tools/refusal");
import type { AdminClient } from "../../src/cli/client";
import type { CliIo } from "../../src/cli/tasks/io";

const SEED = join(import.meta.dirname, "..", "fixtures", "tasks-seed", "account.json");
const dir = mkdtempSync(join(tmpdir(), "worlds-parse-once-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(() => void (parses.count = 0));
// Every seed here is a .json file beside the tasks: the server is never asked.
const untouchable = new Proxy({}, { get: () => { throw new Error("the server was asked"); } }) as AdminClient;

const TASKS = `version: 1\nseed: ${SEED}\ninvariants: [deleted.customers==0]\ntasks:\n  - id: T1\n    requester: billing@northwind.example.com\n    subject: Help\n    body: Please help.\n    expected: none\n`;
const SETTINGS = "version: 1\nfile: tools.json\nname: forms\n";

function write(name: string, text: string | Buffer): string {
  writeFileSync(join(dir, name), text);
  return name;
}

async function tasks(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const io: CliIo = { cwd: dir, env: {}, out: (t) => void (out += t), err: (t) => void (err += t) };
  const code = await runTasks(argv, io);
  return { code, out, err };
}

const settingsLine = (file: string, command: string) =>
  `error: ${file} puts the tasks on your own tools, which ${command} does not judge on its own: a tools run judges every episode on them, by replay (worlds tools run --config ${file})\n`;

describe("a tasks file is parsed once", () => {
  it("tasks validate, tasks build and passk each parse a good file once", async () => {
    const file = write("tasks.yaml", TASKS);
    const v = await tasks(["validate", file]);
    expect(v.code, v.err).toBe(0);
    expect(parses.count).toBe(1);

    parses.count = 0;
    const b = await tasks(["build", file, "--out-seed", "s.json", "--out-rubric", "r.json"]);
    expect(b.code, b.err).toBe(0);
    expect(parses.count).toBe(1);

    parses.count = 0;
    const p = await loadTasks(join(dir, file), untouchable);
    expect(p.ok).toBe(true);
    expect(parses.count).toBe(1);
  });

  it("a tools settings file is still refused, in the same line, by all three, from one parse", async () => {
    const file = write("tools.yaml", SETTINGS);
    expect(ownToolsRefusal(join(dir, file), file, "worlds tasks validate")).toBe(settingsLine(file, "worlds tasks validate").trimEnd());
    for (const [sub, extra] of [["validate", []], ["build", ["--out-seed", "s2.json", "--out-rubric", "r2.json"]]] as const) {
      parses.count = 0;
      const r = await tasks([sub, file, ...extra]);
      expect(r.code).toBe(2);
      expect(r.out).toBe("");
      expect(r.err).toBe(settingsLine(file, `worlds tasks ${sub}`));
      expect(parses.count).toBe(1);
    }
    parses.count = 0;
    const full = join(dir, file);
    const p = await loadTasks(full, untouchable);
    expect(p).toMatchObject({ ok: false, exitCode: 2, reason: settingsLine(full, "worlds passk").trimEnd().replace(/^error: /, ""), nextAction: `run them with worlds tools run --config ${full} -- <your agent command>` });
    expect(parses.count).toBe(1);
  });

  it("a settings file the tasks read decodes differently (a BOM) is judged on its own text, and still refused", async () => {
    const file = write("bom.yaml", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(SETTINGS)]));
    const r = await tasks(["validate", file]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(settingsLine(file, "worlds tasks validate"));
  });

  it("a YAML map close to settings but not settings is compiled as a tasks file, whose problems are the answer", async () => {
    const near = write("near.yaml", "version: 1\nfile: tools.json\nname: forms\ntasks: []\n");
    const n = await tasks(["validate", near]);
    expect(n.code).toBe(2);
    expect(n.err).not.toContain("your own tools");
    expect(n.err).toMatch(/^near\.yaml:\d+:\d+: /);
    expect(parses.count).toBe(1);
  });
});
