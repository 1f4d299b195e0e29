// A file made for a team's own tools handed to a command that reads account tasks files (tasks validate, tasks
// build, passk --tasks): refused in one line that says where such tasks are judged, instead of a list of YAML
// problems about fields the account format does not know. Nothing in the file is run; it is only recognised.
import { closeSync, openSync, readSync, statSync } from "node:fs";
import { z } from "zod";
import { parseToolsConfig, ToolsConfigProblem } from "../../core/tools/config/parse";
import { toolsWorldBlock } from "../../core/tools/world-block";

/** Enough of a file to recognise it: a generated task row is one line, and a settings file is small. */
const READ_BYTES = 1 << 20;

const taskRow = z.looseObject({ id: z.string(), request: z.string(), world: toolsWorldBlock });

function head(path: string): string | null {
  try {
    if (!statSync(path).isFile()) return null;
    const fd = openSync(path, "r");
    try {
      const buf = Buffer.alloc(READ_BYTES);
      const n = readSync(fd, buf, 0, READ_BYTES, 0);
      return buf.subarray(0, n).toString("utf8");
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
}

function isTaskRow(line: string): boolean {
  try {
    return taskRow.safeParse(JSON.parse(line)).success;
  } catch {
    return false;
  }
}

function isToolsSettings(text: string, label: string): boolean {
  try {
    parseToolsConfig(text, label);
    return true;
  } catch (e) {
    if (e instanceof ToolsConfigProblem) return false;
    throw e;
  }
}

const JUDGED = "a tools run judges every episode on them, by replay";

/**
 * The one-line refusal when `path` holds tasks on a team's tools (a row `worlds tools generate` wrote) or is a
 * tools settings file; null for anything else, which the command then reads as it always does. `label` names the
 * file as the user typed it; `command` is the refusing command's name.
 */
export function ownToolsRefusal(path: string, label: string, command: string): string | null {
  const text = head(path);
  if (text === null) return null;
  const first = text.split("\n").find((l) => l.trim() !== "");
  if (first !== undefined && first.trimStart().startsWith("{") && isTaskRow(first))
    return `error: ${label} holds tasks on your own tools, which ${command} does not judge on its own: ${JUDGED} (worlds tools run; worlds tools doctor checks their settings)`;
  if (text.length < READ_BYTES && isToolsSettings(text, label))
    return `error: ${label} puts the tasks on your own tools, which ${command} does not judge on its own: ${JUDGED} (worlds tools run --config ${label})`;
  return null;
}
