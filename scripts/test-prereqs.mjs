// What `npm test` needs that `npm ci` does not bring, checked before anything slow runs: a fresh machine either
// gets it installed here (Debian's chromium, as root) or stops in its first seconds with the command that fixes
// it, instead of failing the browser checks after a quarter of an hour of other tests.
// Run directly (`node scripts/test-prereqs.mjs`, the first step of `npm test`) or imported by vitest's global
// setup, so a targeted `npx vitest run` gets the same guarantee.
import { execFileSync, spawnSync } from "node:child_process";
import { accessSync, constants, existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** Where Debian, Ubuntu and the usual packages put a Chromium; the first that exists and runs is used. */
export const BROWSER_PATHS = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome-stable", "/usr/bin/google-chrome"];

/** The variable that names a browser elsewhere (a Mac, a non-root machine with its own Chromium). */
export const BROWSER_ENV = "WORLDS_CHROMIUM";

export const APT_INSTALL = "apt-get update && apt-get install -y --no-install-recommends chromium";

/**
 * Decides, from facts about the machine, where the browser is or what happens next. Pure, so every branch is
 * tested without touching the machine: `found` (use it), `install` (root with apt-get: install it), `missing`
 * (nothing this script may do: the message names the fix).
 */
export function planBrowser(facts) {
  const named = facts.env[BROWSER_ENV];
  if (named) {
    if (facts.runs(named)) return { kind: "found", path: named };
    return { kind: "missing", message: `${BROWSER_ENV}=${named} does not name a Chromium that runs: point it at one (e.g. /usr/bin/chromium), or unset it to use Debian's` };
  }
  const path = BROWSER_PATHS.find((p) => facts.runs(p));
  if (path) return { kind: "found", path };
  if (facts.isRoot && facts.hasAptGet) return { kind: "install", command: APT_INSTALL, path: "/usr/bin/chromium" };
  const how = facts.hasAptGet ? `sudo sh -c '${APT_INSTALL}'` : "install Chromium with your system's package manager";
  return {
    kind: "missing",
    message: `the HTML report's browser checks need Chromium and none was found (looked in ${BROWSER_PATHS.join(", ")}): ${how}, or set ${BROWSER_ENV} to a Chromium binary`,
  };
}

/** Node's own prerequisite: the CLI and the test pool need 20.3 or later (engines in package.json). */
export function nodeProblem(version) {
  const [major, minor] = version.replace(/^v/, "").split(".").map(Number);
  if (major > 20 || (major === 20 && minor >= 3)) return null;
  return `Node ${version} is too old: worlds needs Node 20.3 or later (nvm install 20)`;
}

function runs(path) {
  try {
    accessSync(path, constants.X_OK);
  } catch {
    return false;
  }
  const r = spawnSync(path, ["--version"], { encoding: "utf8", timeout: 20_000 });
  return r.status === 0;
}

function machineFacts() {
  return {
    env: process.env,
    runs,
    isRoot: typeof process.getuid === "function" && process.getuid() === 0,
    hasAptGet: existsSync("/usr/bin/apt-get"),
  };
}

/** Finds the browser without installing anything: its path, or an Error whose message is the fix. */
export function findBrowser() {
  // As if not root, so the message is the fix rather than a plan to install.
  const plan = planBrowser({ ...machineFacts(), isRoot: false });
  if (plan.kind === "found") return plan.path;
  throw new Error(plan.message);
}

/** Finds the browser, installing Debian's package when this machine allows it; throws with the fix otherwise. */
export function ensureBrowser(log = (line) => process.stderr.write(line + "\n")) {
  const plan = planBrowser(machineFacts());
  if (plan.kind === "found") return plan.path;
  if (plan.kind === "missing") throw new Error(plan.message);
  log(`test prerequisites: installing Debian's chromium for the browser checks (${plan.command})`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  try {
    execFileSync("apt-get", ["update", "-qq"], { env, stdio: ["ignore", "ignore", "inherit"] });
    execFileSync("apt-get", ["install", "-y", "-qq", "--no-install-recommends", "chromium"], { env, stdio: ["ignore", "ignore", "inherit"] });
  } catch (e) {
    throw new Error(`installing chromium failed (${e.message.split("\n")[0]}): run '${plan.command}' by hand, or set ${BROWSER_ENV} to a Chromium binary`);
  }
  if (!runs(plan.path)) throw new Error(`chromium was installed but ${plan.path} does not run: check '${plan.path} --version'`);
  return plan.path;
}

export function checkPrerequisites(log) {
  const node = nodeProblem(process.version);
  if (node) throw new Error(node);
  if (!existsSync(fileURLToPath(new URL("../node_modules/playwright-core/package.json", import.meta.url)))) throw new Error("the dependencies are not installed: run npm ci");
  return { browser: ensureBrowser(log) };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    const { browser } = checkPrerequisites();
    process.stderr.write(`test prerequisites: Node ${process.version}, Chromium at ${browser}\n`);
  } catch (e) {
    process.stderr.write(`npm test cannot run on this machine yet: ${e.message}\n`);
    process.exit(1);
  }
}
