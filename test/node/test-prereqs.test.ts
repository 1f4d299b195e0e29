// The check `npm test` starts with: where the browser is, when it is installed, and what a machine that can do
// neither is told (in the first seconds, with the fix), decided from facts so no branch needs a real machine.
import { describe, expect, it } from "vitest";
import { APT_INSTALL, BROWSER_ENV, nodeProblem, planBrowser, type MachineFacts } from "../../scripts/test-prereqs.mjs";

const facts = (over: Partial<MachineFacts> & { present?: string[] } = {}): MachineFacts => ({
  env: {},
  isRoot: false,
  hasAptGet: true,
  runs: (p) => (over.present ?? []).includes(p),
  ...over,
});

describe("planBrowser", () => {
  it("uses Debian's chromium when it runs", () => {
    expect(planBrowser(facts({ present: ["/usr/bin/chromium"] }))).toEqual({ kind: "found", path: "/usr/bin/chromium" });
  });

  it("finds Ubuntu's name for it too", () => {
    expect(planBrowser(facts({ present: ["/usr/bin/chromium-browser"] }))).toEqual({ kind: "found", path: "/usr/bin/chromium-browser" });
  });

  it("installs Debian's package on a fresh machine where it is root with apt-get", () => {
    expect(planBrowser(facts({ isRoot: true }))).toEqual({ kind: "install", command: APT_INSTALL, path: "/usr/bin/chromium" });
  });

  it("names the fix when it may not install (not root)", () => {
    const plan = planBrowser(facts());
    expect(plan.kind).toBe("missing");
    if (plan.kind !== "missing") return;
    expect(plan.message).toContain(`sudo sh -c '${APT_INSTALL}'`);
    expect(plan.message).toContain(BROWSER_ENV);
  });

  it("names the fix when there is no apt-get at all", () => {
    const plan = planBrowser(facts({ isRoot: true, hasAptGet: false }));
    expect(plan).toMatchObject({ kind: "missing" });
    if (plan.kind === "missing") expect(plan.message).toMatch(/package manager.*WORLDS_CHROMIUM/);
  });

  it("takes the browser the environment names, and says so when it does not run", () => {
    expect(planBrowser(facts({ env: { [BROWSER_ENV]: "/opt/chrome" }, present: ["/opt/chrome"] }))).toEqual({ kind: "found", path: "/opt/chrome" });
    const bad = planBrowser(facts({ env: { [BROWSER_ENV]: "/opt/none" }, isRoot: true, present: ["/usr/bin/chromium"] }));
    expect(bad).toMatchObject({ kind: "missing" });
    if (bad.kind === "missing") expect(bad.message).toContain("/opt/none does not name a Chromium that runs");
  });
});

describe("nodeProblem", () => {
  it("accepts Node 20.3 and later and names the fix for older", () => {
    expect(nodeProblem("v20.20.2")).toBeNull();
    expect(nodeProblem("v22.1.0")).toBeNull();
    expect(nodeProblem("v20.2.0")).toMatch(/Node v20.2.0 is too old.*20.3/);
    expect(nodeProblem("v18.19.0")).toMatch(/too old/);
  });
});
