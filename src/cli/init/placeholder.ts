// The agent command `worlds init` writes into the CI workflow until the user puts theirs in. It names no program
// that exists, so a run that still carries it cannot start an agent; agentPlaceholderProblem lets passk say so
// before any world is created.
export const AGENT_PLACEHOLDER = "REPLACE_WITH_YOUR_AGENT_COMMAND";

/** A message when the agent command is still init's placeholder, else null. */
export function agentPlaceholderProblem(argv: readonly string[]): string | null {
  if (!argv.some((a) => a.includes(AGENT_PLACEHOLDER))) return null;
  return `the agent command is still the placeholder \`worlds init\` wrote (${AGENT_PLACEHOLDER}): replace it with the command that starts your agent (in .github/workflows/worlds.yml for CI)`;
}
