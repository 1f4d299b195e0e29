#!/usr/bin/env node
// A scripted agent for tools worlds that reads requests literally, with no model (its rules:
// lib/literal-tools.mjs). It shows the agent contract for tools worlds (docs/tools.md) and gives the tests known
// verdicts. Flags: --twice (repeat the last write: collateral_mutation), --silent (no reply: wrong_state),
// --wrong-tool (call a tool outside the block: malformed_call).
import { readFileSync } from "node:fs";
import { solveLiterally } from "./lib/literal-tools.mjs";

const task = JSON.parse(process.env.WORLDS_TASK_JSON ?? readFileSync(0, "utf8"));
const flags = new Set(process.argv.slice(2));
const reply = await solveLiterally(task, {
  base: process.env.WORLDS_TOOLS_URL,
  key: process.env.WORLDS_TOOLS_KEY,
  twice: flags.has("--twice"),
  silent: flags.has("--silent"),
  wrongTool: flags.has("--wrong-tool"),
});
if (reply !== null) process.stdout.write(reply + "\n");
