// worlds init in-process: the files each answer writes, the cap, refusals, the export import, and that every
// written tasks file validates.
import { existsSync, mkdtempSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { runInitCommand } from "../commands/init";
import { runTasks } from "../commands/tasks";
import type { CliIo } from "../tasks/io";
import { collectAnswers } from "./questions";
import { loadLibrary, selectTasks, STARTER_CAP } from "./packs";
import { agentPlaceholderProblem, AGENT_PLACEHOLDER } from "./placeholder";
import { BASELINE_FILE, renderWorkflow } from "./workflow";
import { packageVersion } from "../paths";

function io(cwd: string): CliIo & { stdout: () => string; stderr: () => string } {
  let out = "";
  let err = "";
  return { cwd, env: {}, out: (t) => void (out += t), err: (t) => void (err += t), stdout: () => out, stderr: () => err };
}

const project = () => mkdtempSync(join(tmpdir(), "worlds-init-"));

async function init(dir: string, ...argv: string[]) {
  const x = io(dir);
  const code = await runInitCommand(argv, x, false);
  return { code, out: x.stdout(), err: x.stderr() };
}

interface TasksYaml {
  seed: string;
  policy: string;
  invariants: string[];
  tasks: Array<{ id: string; trap_class?: string }>;
}
const tasksOf = (dir: string) => parseYaml(readFileSync(join(dir, "worlds", "tasks.yaml"), "utf8")) as TasksYaml;

async function validate(dir: string): Promise<{ code: number; out: string; err: string }> {
  const x = io(dir);
  const code = await runTasks(["validate", "worlds/tasks.yaml"], x);
  return { code, out: x.stdout(), err: x.stderr() };
}

const lib = loadLibrary();
const inbox = (id: string) => lib.position.get(id)!;

describe("the CI workflow", () => {
  const steps = (parseYaml(renderWorkflow("worlds/tasks.yaml")) as { jobs: { "crash-test": { steps: Array<{ name?: string; uses?: string; if?: string; run?: string; with?: Record<string, string> }> } } }).jobs["crash-test"].steps;
  const passk = steps.find((s) => s.name === "worlds passk")!;
  // The step's script as bash runs it, with npx standing in for a command that prints the arguments it got.
  const argsIn = (cwd: string) => {
    const script = passk.run!.replace(/npx worlds passk/, "printf '%s\\n' passk");
    const r = spawnSync("bash", ["-e", "-c", script], { cwd, encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    return r.stdout.trim().split("\n");
  };
  it("passes --baseline only when the main branch's results were restored", () => {
    const dir = project();
    expect(argsIn(dir)).not.toContain("--baseline");
    writeFileSync(join(dir, BASELINE_FILE), "{}");
    const args = argsIn(dir);
    expect(args.slice(args.indexOf("--baseline"), args.indexOf("--baseline") + 2)).toEqual(["--baseline", BASELINE_FILE]);
    expect(args.at(-1)).toBe(AGENT_PLACEHOLDER);
  });
  it("restores the baseline on pull requests and saves it from main, always", () => {
    const restore = steps.find((s) => s.uses === "actions/cache/restore@v4")!;
    expect(restore).toMatchObject({ if: "github.event_name == 'pull_request'", with: { path: BASELINE_FILE, "restore-keys": "worlds-baseline-" } });
    const save = steps.find((s) => s.uses === "actions/cache/save@v4")!;
    expect(save.if).toBe("always() && github.event_name == 'push' && hashFiles('worlds-results.json') != ''");
    expect(save.with).toEqual({ path: BASELINE_FILE, key: "worlds-baseline-${{ github.sha }}" });
    expect(steps.indexOf(restore)).toBeLessThan(steps.indexOf(passk));
    expect(steps.indexOf(passk)).toBeLessThan(steps.indexOf(save));
  });
});

describe("the project init runs in", () => {
  const manifest = { name: "my-agent", private: true, scripts: { test: "node --test" }, devDependencies: { typescript: "5.9.3", "@types/node": "20.19.43" } };

  it("a Node project gets worlds in devDependencies at this exact version, and a workflow that installs it with npm ci", async () => {
    const dir = project();
    writeFileSync(join(dir, "package.json"), JSON.stringify(manifest, null, 4) + "\n");
    const r = await init(dir, "--yes");
    expect(r.code, r.err).toBe(0);
    const text = readFileSync(join(dir, "package.json"), "utf8");
    expect(JSON.parse(text)).toEqual({ ...manifest, devDependencies: { "@types/node": "20.19.43", typescript: "5.9.3", worlds: packageVersion() } });
    expect(text).toMatch(/^ {4}"name"/m); // its own indentation
    expect(Object.keys(JSON.parse(text).devDependencies)).toEqual(["@types/node", "typescript", "worlds"]);
    expect(r.out).toContain(`added worlds ${packageVersion()} to devDependencies in package.json`);
    expect(r.out).toContain("next: npm install, then npx worlds passk");
    const workflow = readFileSync(join(dir, ".github", "workflows", "worlds.yml"), "utf8");
    expect(workflow).toBe(renderWorkflow("worlds/tasks.yaml"));
    expect(workflow).toContain("      - run: npm ci\n");
    expect(workflow).toContain("          npx worlds passk --server auto");
  });

  it("a dependency on worlds already there is left as it is", async () => {
    const dir = project();
    const text = JSON.stringify({ ...manifest, dependencies: { worlds: "file:../worlds-0.1.0.tgz" } }, null, 2);
    writeFileSync(join(dir, "package.json"), text);
    const r = await init(dir, "--yes", "--no-ci");
    expect(r.code, r.err).toBe(0);
    expect(readFileSync(join(dir, "package.json"), "utf8")).toBe(text);
    expect(r.out).toContain("package.json already has worlds in dependencies (file:../worlds-0.1.0.tgz); left as it is");
  });

  it("an unreadable package.json is refused before anything is written; a later failure puts it back", async () => {
    const dir = project();
    writeFileSync(join(dir, "package.json"), "{ name: nope }");
    const r = await init(dir, "--yes");
    expect(r.code).toBe(2);
    expect(r.err).toContain("package.json is not valid JSON");
    expect(existsSync(join(dir, "worlds", "tasks.yaml"))).toBe(false);
    const other = project();
    writeFileSync(join(other, "package.json"), JSON.stringify(manifest));
    writeFileSync(join(other, "bad.csv"), "Name,Notes\nx,y\n");
    expect((await init(other, "--yes", "--tickets", "bad.csv")).code).toBe(2);
    expect(readFileSync(join(other, "package.json"), "utf8")).toBe(JSON.stringify(manifest));
  });

  it("the npx workflow differs from the Node one only in how it gets worlds: agent line, secrets hint and artifacts unchanged", () => {
    const node = renderWorkflow("worlds/tasks.yaml");
    const npx = renderWorkflow("worlds/tasks.yaml", { kind: "npx", version: "9.8.7" });
    expect(npx).toContain("npx --yes worlds@9.8.7 passk --server auto");
    const asNode = npx
      .replace("      # No package.json here: npx fetches worlds 9.8.7; change worlds@9.8.7 below to upgrade.\n", "      - run: npm ci\n")
      .replace("npx --yes worlds@9.8.7 passk", "npx worlds passk");
    expect(asNode).toBe(node);
  });
});

describe("worlds init --yes", () => {
  it("writes a fifteen-task starter touching every trap class, the policy, the workflow and the ignore line; it validates", async () => {
    const dir = project();
    const r = await init(dir, "--yes");
    expect(r.code, r.err).toBe(0);
    const file = tasksOf(dir);
    expect(file.seed).toBe("acme-prod-library");
    expect(file.policy).toBe("policy.md");
    expect(file.invariants).toEqual(["deleted.customers==0", "created.subscriptions==0"]);
    expect(file.tasks).toHaveLength(STARTER_CAP);
    const everyPackTask = new Map(lib.packs.flatMap((p) => p.tasks.map((t) => [t.id, t] as const)));
    const allClasses = new Set([...everyPackTask.values()].map((t) => t.trap_class));
    expect(new Set(file.tasks.map((t) => t.trap_class))).toEqual(allClasses);
    // In inbox order, and each task exactly as its pack wrote it.
    const positions = file.tasks.map((t) => inbox(t.id));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    for (const t of file.tasks) expect(t).toEqual(everyPackTask.get(t.id));
    // Each class's first task in inbox order is the one kept.
    for (const c of allClasses) {
      const first = [...everyPackTask.values()].filter((t) => t.trap_class === c).sort((a, b) => inbox(a.id) - inbox(b.id))[0];
      expect(file.tasks.map((t) => t.id)).toContain(first.id);
    }
    expect(readFileSync(join(dir, "worlds", "policy.md"), "utf8")).toBe(readFileSync(join(__dirname, "..", "..", "..", "seeds", "acme-policy.md"), "utf8"));
    const workflow = readFileSync(join(dir, ".github", "workflows", "worlds.yml"), "utf8");
    expect(workflow).toContain("pull_request:");
    // No package.json here: the workflow runs this very version through npx.
    expect(workflow).toContain(`npx --yes worlds@${packageVersion()} passk --server auto --tasks worlds/tasks.yaml --json-file worlds-results.json --report worlds-report.html "\${BASELINE[@]}" -- ${AGENT_PLACEHOLDER}`);
    expect(workflow).not.toContain("npm ci");
    expect(existsSync(join(dir, "package.json"))).toBe(false);
    expect(r.out).toContain(`no package.json here: the workflow runs worlds ${packageVersion()} through npx --yes worlds@${packageVersion()}`);
    expect(parseYaml(workflow)).toMatchObject({ name: "worlds", on: { pull_request: null, push: { branches: ["main"] } } });
    expect(readFileSync(join(dir, ".gitignore"), "utf8")).toBe("worlds/*.identities.json\n");
    expect(r.out).toContain("tasks: 15 (15 keyed, 0 policy-only) on acme-prod-library");
    const v = await validate(dir);
    expect(v.code, v.err).toBe(0);
  });

  it("refuses to overwrite without --force, and --force does (the ignore line is not added twice)", async () => {
    const dir = project();
    writeFileSync(join(dir, ".gitignore"), "node_modules");
    expect((await init(dir, "--yes", "--no-ci")).code).toBe(0);
    writeFileSync(join(dir, "worlds", "policy.md"), "my own words\n");
    const again = await init(dir, "--yes", "--authorities", "credits");
    expect(again.code).toBe(2);
    expect(again.err).toContain("worlds/tasks.yaml, worlds/policy.md already exist");
    expect(again.err).toContain("--force");
    expect(readFileSync(join(dir, "worlds", "policy.md"), "utf8")).toBe("my own words\n");
    expect(existsSync(join(dir, ".github"))).toBe(false);
    const forced = await init(dir, "--yes", "--authorities", "credits", "--force");
    expect(forced.code, forced.err).toBe(0);
    expect(readFileSync(join(dir, ".gitignore"), "utf8")).toBe("node_modules\nworlds/*.identities.json\n");
    expect(tasksOf(dir).tasks.some((t) => t.trap_class === "credit-limit")).toBe(true);
  });
});

describe("which packs", () => {
  it("refunds bring the invoices pack", async () => {
    const dir = project();
    expect((await init(dir, "--yes", "--no-ci", "--authorities", "refunds")).code).toBe(0);
    const classes = new Set(tasksOf(dir).tasks.map((t) => t.trap_class));
    expect(classes.has("void-vs-credit-note")).toBe(true);
    expect(classes.has("duplicate-charge")).toBe(true);
    expect(classes.has("credit-limit")).toBe(false);
    expect((await validate(dir)).code).toBe(0);
  });

  it("no authority leaves only the tasks every pack carries", async () => {
    const dir = project();
    expect((await init(dir, "--yes", "--no-ci", "--authorities", "none")).code).toBe(0);
    const ids = tasksOf(dir).tasks.map((t) => t.id);
    const carriedByAll = lib.packs[0].tasks.filter((t) => lib.packs.every((p) => p.tasks.some((u) => u.id === t.id))).map((t) => t.id);
    expect(new Set(ids)).toEqual(new Set(carriedByAll));
    expect(new Set(tasksOf(dir).tasks.map((t) => t.trap_class))).toEqual(new Set(["shared-email", "embedded-instruction"]));
    expect((await validate(dir)).code).toBe(0);
  });

  it("--pack all writes every pack task uncapped and says how many the library holds", async () => {
    const dir = project();
    const r = await init(dir, "--yes", "--no-ci", "--pack", "all");
    expect(r.code, r.err).toBe(0);
    const distinct = new Set(lib.packs.flatMap((p) => p.tasks.map((t) => t.id)));
    expect(tasksOf(dir).tasks).toHaveLength(distinct.size);
    expect(r.out).toContain(`the library holds ${lib.tickets} tickets`);
    expect((await validate(dir)).code).toBe(0);
  });

  it("the cap keeps the first fifteen classes, one task each, when a union has more classes than fifteen", () => {
    const many = {
      ...lib,
      packs: lib.packs.map((p, i) => ({ ...p, tasks: p.tasks.map((t) => ({ ...t, trap_class: `${t.trap_class}-${i}` })) })),
    };
    const sel = selectTasks(many, ["refunds", "credits", "cancellations", "plan-changes", "invoices"]);
    expect(sel.tasks).toHaveLength(STARTER_CAP);
    expect(new Set(sel.tasks.map((t) => t.trap_class)).size).toBe(STARTER_CAP);
  });

  it("an unknown authority is refused by name", async () => {
    const r = await init(project(), "--yes", "--authorities", "refunds,discounts");
    expect(r.code).toBe(2);
    expect(r.err).toContain("'discounts' is not an authority");
  });
});

describe("bringing tickets and an account", () => {
  const exportCsv = [
    "Ticket ID,Requester email,Subject,Description,Status",
    "7001,billing.tealharbor@example.com,Receipt please,Can you resend the September receipt?,open",
    "7002,someone@unknown.example,Hello,Who are you?,open",
  ].join("\n");

  it("imports an export's rows on library customers after the starter tasks", async () => {
    const dir = project();
    writeFileSync(join(dir, "tickets.csv"), exportCsv);
    const r = await init(dir, "--yes", "--no-ci", "--tickets", "tickets.csv");
    expect(r.code, r.err).toBe(0);
    const ids = tasksOf(dir).tasks.map((t) => String(t.id));
    expect(ids).toContain("7001");
    expect(ids).not.toContain("7002");
    expect(r.out).toContain("the account does not know");
    expect((await validate(dir)).code).toBe(0);
  });

  it("an imported account takes its tasks from the export; without one it is refused and nothing is written", async () => {
    const dir = project();
    mkdirSync(join(dir, "worlds", "seeds"), { recursive: true });
    const seed = JSON.parse(readFileSync(join(__dirname, "..", "..", "..", "seeds", "acme-small.json"), "utf8")) as { name: string; data: { customers: Array<{ email: string }> } };
    writeFileSync(join(dir, "worlds", "seeds", "mine.json"), JSON.stringify(seed));
    const refused = await init(dir, "--yes", "--account", "worlds/seeds/mine.json");
    expect(refused.code).toBe(2);
    expect(refused.err).toContain("--tickets");
    expect(existsSync(join(dir, "worlds", "tasks.yaml"))).toBe(false);

    const email = seed.data.customers[0].email;
    writeFileSync(join(dir, "export.json"), JSON.stringify([{ id: "T-1", requester_email: email, subject: "Invoice copy", description: "Please send my last invoice." }]));
    const r = await init(dir, "--yes", "--no-ci", "--account", "worlds/seeds/mine.json", "--tickets", "export.json");
    expect(r.code, r.err).toBe(0);
    const file = tasksOf(dir);
    expect(file.seed).toBe("seeds/mine.json");
    expect(file.tasks.map((t) => t.id)).toEqual(["T-1"]);
    expect((await validate(dir)).code).toBe(0);
  });

  it("the bundled library export: its unknown requester skipped, its shared-address row reported and left out, the rest kept", async () => {
    const dir = project();
    const r = await init(dir, "--yes", "--no-ci", "--tickets", join(__dirname, "..", "..", "..", "examples", "help-desk-exports", "library", "zendesk-tickets.csv"));
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain("imported 5 tasks from 6 CSV rows into worlds/tasks.yaml (seed acme-prod-library)");
    expect(r.err).toContain("task 6104: billing.inkwell@example.com is shared by 2 accounts");
    expect(r.err).toContain("left out 1 imported task (6104) that cannot be graded on this account, the rest kept");
    const ids = tasksOf(dir).tasks.map((t) => String(t.id));
    expect(ids.filter((id) => id.startsWith("61"))).toEqual(["6101", "6102", "6103", "6106"]);
    expect(ids).toHaveLength(19);
    expect((await validate(dir)).code).toBe(0);
  });

  it("an export whose rows all fail leaves nothing behind", async () => {
    const dir = project();
    writeFileSync(join(dir, "bad.csv"), "Name,Notes\nx,y\n");
    const r = await init(dir, "--yes", "--tickets", "bad.csv");
    expect(r.code).toBe(2);
    expect(existsSync(join(dir, "worlds", "tasks.yaml"))).toBe(false);
    expect(existsSync(join(dir, "worlds", "policy.md"))).toBe(false);
    expect(existsSync(join(dir, ".gitignore"))).toBe(false);
    expect(existsSync(join(dir, ".github", "workflows", "worlds.yml"))).toBe(false);
  });

  it("--policy copies your policy; a missing one is refused", async () => {
    const dir = project();
    writeFileSync(join(dir, "rules.md"), "# Our rules\nRefund within 14 days.\n");
    expect((await init(dir, "--yes", "--no-ci", "--policy", "rules.md")).code).toBe(0);
    expect(readFileSync(join(dir, "worlds", "policy.md"), "utf8")).toContain("14 days");
    const r = await init(project(), "--yes", "--policy", "nope.md");
    expect(r.code).toBe(2);
    expect(r.err).toContain("policy nope.md: no such file");
  });
});

describe("the questions", () => {
  it("asks what no flag answered, re-asks a bad answer, and takes defaults on Enter", async () => {
    const dir = project();
    const script = ["refunds, plan_changes", "", "", "nonexistent.md", "default", "maybe", "n"];
    const asked: string[] = [];
    const notes: string[] = [];
    const answers = await collectAnswers(dir, {}, async (q) => (asked.push(q), script.shift() ?? ""), (l) => notes.push(l));
    expect(answers).toEqual({ authorities: ["refunds", "plan-changes"], account: "library", tickets: null, policy: "default", ci: false });
    expect(asked).toHaveLength(7);
    expect(asked[0]).toMatch(/authorities.*\[all\]/);
    expect(notes).toEqual(["  policy nonexistent.md: no such file", "  answer yes or no (got 'maybe')"]);
  });

  it("flags answer their questions without asking", async () => {
    const answers = await collectAnswers(project(), { authorities: "credits", ci: false }, null, () => undefined);
    expect(answers).toEqual({ authorities: ["credits"], account: "library", tickets: null, policy: "default", ci: false });
  });
});

describe("the placeholder agent command", () => {
  it("is recognised wherever it stands in the command", () => {
    expect(agentPlaceholderProblem(["node", "agent.mjs"])).toBeNull();
    expect(agentPlaceholderProblem([AGENT_PLACEHOLDER])).toMatch(/placeholder/);
    expect(agentPlaceholderProblem(["sh", "-c", `${AGENT_PLACEHOLDER} --fast`])).toMatch(/replace it/);
  });
});
