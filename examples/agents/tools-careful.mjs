#!/usr/bin/env node
// The reference agent for tools worlds, with no model (its rules: lib/careful-tools.mjs): it passes the first level
// of every dial on a set that reaches it, so a failure there points at the harness or the set, not the agent. The
// literal agent (tools-literal.mjs) is the weak baseline beside it.
import { readFileSync } from "node:fs";
import { solveCarefully } from "./lib/careful-tools.mjs";

const task = JSON.parse(process.env.WORLDS_TASK_JSON ?? readFileSync(0, "utf8"));
process.stdout.write((await solveCarefully(task, { base: process.env.WORLDS_TOOLS_URL, key: process.env.WORLDS_TOOLS_KEY })) + "\n");
