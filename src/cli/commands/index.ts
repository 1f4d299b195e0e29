// Command registry: `worlds <name>`; a multi-word command (`tasks validate`) dispatches inside its module.
import type { Command } from "./types";
import { serve } from "./serve";
import { run } from "./run";
import { passk } from "./passk";
import { doctor } from "./doctor";
import { selftest } from "./selftest";
import { tasks } from "./tasks";
import { init } from "./init";
import { seed } from "./seed";
import { runs } from "./runs";
import { compare } from "./compare";
import { model } from "./model";
import { lazyCommand } from "./lazy";
import { TOOLS_SUMMARY } from "./tools-summary";
import { judge } from "./judge";
import { evals } from "./evals";
import { family } from "./family";
import { view } from "./view";

export const COMMANDS: Record<string, Command> = {
  serve,
  run,
  passk,
  doctor,
  selftest,
  tasks,
  init,
  seed,
  runs,
  compare,
  model,
  judge,
  tools: lazyCommand(TOOLS_SUMMARY, async () => (await import("./tools")).tools),
  evals,
  family,
  view,
};
