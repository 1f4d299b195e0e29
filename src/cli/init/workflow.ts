// The GitHub Actions workflow init writes: the crash test on every pull request, compared with the main branch's
// last results when there are any (passk --baseline, so a significant regression fails the check), failing on any
// non-zero exit, with the results and the report kept as an artifact. A run on main saves its results as the next
// baseline in the Actions cache, which pull requests can read: no token, no other workflow's artifacts.
// A Node project runs the worlds its lockfile pins (`npm ci`, then `npx worlds`); any other project runs the
// version that wrote the workflow through `npx --yes worlds@VERSION`, with no package.json needed.
import { AGENT_PLACEHOLDER } from "./placeholder";

/** How the workflow runs worlds. */
export type WorldsRunner = { kind: "dependency" } | { kind: "npx"; version: string };
export const DEPENDENCY_RUNNER: WorldsRunner = { kind: "dependency" };

/** The command the workflow's step starts worlds with. */
export function worldsCommand(runner: WorldsRunner): string {
  return runner.kind === "dependency" ? "npx worlds" : `npx --yes worlds@${runner.version}`;
}

export const WORKFLOW_PATH = ".github/workflows/worlds.yml";
/** Where the main branch's results are kept between runs (restored on pull requests, saved on main). */
export const BASELINE_FILE = "worlds-baseline.json";

export function renderWorkflow(tasksPath: string, runner: WorldsRunner = DEPENDENCY_RUNNER): string {
  const install =
    runner.kind === "dependency"
      ? "      - run: npm ci\n"
      : `      # No package.json here: npx fetches worlds ${runner.version}; change worlds@${runner.version} below to upgrade.\n`;
  const onMain = "github.event_name == 'push' && hashFiles('worlds-results.json') != ''";
  return `# Crash-tests the support agent on every pull request. Written by \`worlds init\`.
# Replace ${AGENT_PLACEHOLDER} below with the command that starts your agent (until then the
# check fails with exit 2, configuration_incomplete). A non-zero exit fails the check:
# 1 a policy failure or a significant regression against main, 2 configuration, 3 setup,
# 4 inconclusive (docs/results.md). Runs on main keep their results as the pull requests' baseline;
# if your default branch has another name, change "main" below.
name: worlds

on:
  pull_request:
  push:
    branches: [main]

jobs:
  crash-test:
    runs-on: ubuntu-latest
    timeout-minutes: 30
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 20
${install}      - name: the main branch's last results (the baseline)
        if: github.event_name == 'pull_request'
        uses: actions/cache/restore@v4
        with:
          path: ${BASELINE_FILE}
          key: worlds-baseline-\${{ github.event.pull_request.base.sha }}
          restore-keys: worlds-baseline-
      - name: worlds passk
        # Secrets your agent needs go in an env: block here, e.g. OPENAI_API_KEY: \${{ secrets.OPENAI_API_KEY }}
        run: |
          BASELINE=(); if [ -f ${BASELINE_FILE} ]; then BASELINE=(--baseline ${BASELINE_FILE}); fi
          ${worldsCommand(runner)} passk --server auto --tasks ${tasksPath} --json-file worlds-results.json --report worlds-report.html "\${BASELINE[@]}" -- ${AGENT_PLACEHOLDER}
      - name: keep main's results as the next baseline
        if: always() && ${onMain}
        run: cp worlds-results.json ${BASELINE_FILE}
      - uses: actions/cache/save@v4
        if: always() && ${onMain}
        with:
          path: ${BASELINE_FILE}
          key: worlds-baseline-\${{ github.sha }}
      - uses: actions/upload-artifact@v4
        if: always()
        with:
          name: worlds-report
          path: |
            worlds-results.json
            worlds-report.html
          if-no-files-found: ignore
`;
}
