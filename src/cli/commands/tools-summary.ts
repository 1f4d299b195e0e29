/** What `worlds --help` says of `worlds tools`, kept apart so the registry can list it without loading the commands. */
export const TOOLS_SUMMARY = "crash tests on your own tools (OpenAI tools, MCP tool lists, OpenAPI), simulated from their schemas";
