// The GitHub Actions workflow init writes: the crash test on every pull request, failing the check on any
// non-zero exit, with the results and the report kept as an artifact.
import { AGENT_PLACEHOLDER } from "./placeholder";

export const WORKFLOW_PATH = ".github/workflows/worlds.yml";

export function renderWorkflow(tasksPath: string): string {
  return `# Crash-tests the support agent on every pull request. Written by \`worlds init\`.
# Replace ${AGENT_PLACEHOLDER} below with the command that starts your agent (until then the
# check fails with exit 2, configuration_incomplete). A non-zero exit fails the check:
# 1 a policy failure, 2 configuration, 3 setup, 4 inconclusive (docs/results.md).
name: worlds

on:
  pull_request:

jobs:
  crash-test:
    runs-on: ubuntu-latest
    timeout-minutes: 30
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 20
      - run: npm ci
      - name: worlds passk
        # Secrets your agent needs go in an env: block here, e.g. OPENAI_API_KEY: \${{ secrets.OPENAI_API_KEY }}
        run: npx worlds passk --server auto --tasks ${tasksPath} --json-file worlds-results.json --report worlds-report.html -- ${AGENT_PLACEHOLDER}
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
