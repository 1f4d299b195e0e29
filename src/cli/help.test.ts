// `worlds help <command>` is that command's help, and every usage line names every option the command takes,
// so nobody reads the usage line and concludes a flag (--seed, --rubric, --verbose...) does not exist.
import { afterEach, describe, expect, it, vi } from "vitest";
import { main } from "./main";

function capture(): { out: () => string } {
  let text = "";
  vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    text += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, "write").mockImplementation(() => true);
  return { out: () => text };
}

afterEach(() => vi.restoreAllMocks());

const COMMANDS = [["passk"], ["run"], ["doctor"], ["serve"], ["selftest"], ["init"], ["tasks", "validate"], ["tasks", "build"], ["tasks", "import"], ["seed", "import"], ["runs", "list"], ["runs", "show"], ["compare"], ["family", "list"], ["family", "validate"], ["family", "gate"], ["view"]];

describe("worlds help", () => {
  it("prints the command's own help, the same as --help", async () => {
    const a = capture();
    expect(await main(["help", "passk"])).toBe(0);
    const viaHelp = a.out();
    vi.restoreAllMocks();
    const b = capture();
    expect(await main(["passk", "--help"])).toBe(0);
    expect(viaHelp).toBe(b.out());
    expect(viaHelp).toMatch(/^usage: worlds passk /);
  });

  it("reaches a subcommand's help", async () => {
    const c = capture();
    expect(await main(["help", "tasks", "import"])).toBe(0);
    expect(c.out()).toMatch(/^usage: worlds tasks import /);
  });

  it("refuses an unknown command with exit 2", async () => {
    capture();
    expect(await main(["help", "nope"])).toBe(2);
  });

  it.each(COMMANDS)("%s %s: the usage line names every option", async (...argv) => {
    const c = capture();
    expect(await main([...argv, "--help"])).toBe(0);
    const text = c.out();
    const usage = text.slice(0, text.indexOf("\n\n"));
    // A flag defined only to refuse it with a reason (runs --server) is not an option to advertise.
    const options = [...text.slice(text.indexOf("options:")).matchAll(/^ {2}(?:-\w, | {4})--([a-z-]+).*?  (.*)$/gm)].filter((m) => !m[2].includes("not accepted")).map((m) => m[1]);
    expect(options.length).toBeGreaterThan(0);
    const missing = options.filter((o) => !new RegExp(`--${o}\\b`).test(usage));
    expect(missing, `usage:\n${usage}`).toEqual([]);
  });
});
