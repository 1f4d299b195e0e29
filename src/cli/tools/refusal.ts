// A file made for a team's own tools handed to a command that reads account tasks files (tasks validate, tasks
// build, passk --tasks): refused in one line that says where such tasks are judged, instead of a list of YAML
// problems about fields the account format does not know. Nothing in the file is run; it is only recognised.
import { closeSync, openSync, readSync, statSync } from "node:fs";
import { z } from "zod";
import type { TasksFileRead } from "../../core/kinds/account/tasks/read";
import { parseToolsConfig, ToolsConfigProblem } from "../../core/kinds/tools/config/parse";
import { toolsConfig } from "../../core/kinds/tools/config/schema";
import { toolsWorldBlock } from "../../core/kinds/tools/world-block";

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
  return refusalOf(text, label, command, () => text.length < READ_BYTES && isToolsSettings(text, label));
}

/**
 * The same refusal, in the same words, for a file the command has already read and parsed as a tasks file
 * (`bytes`, and `read` = readTasksFile of them): the settings check reuses that parse instead of parsing the
 * YAML a second time. Both parses are YAML 1.2 core with unique keys, the same alias and depth limits, and fail
 * on the same errors, so a document is settings here exactly when it would be on its own. Where the two texts
 * differ (bytes that are not clean UTF-8, a BOM) or the file is past the first MiB the refusal reads, it decides
 * as `ownToolsRefusal` does.
 */
export function ownToolsRefusalOfRead(path: string, label: string, command: string, bytes: Uint8Array, read: TasksFileRead): string | null {
  if (bytes.byteLength >= READ_BYTES) return ownToolsRefusal(path, label, command);
  try {
    if (!statSync(path).isFile()) return null;
  } catch {
    return null;
  }
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  if (read.text !== text) return refusalOf(text, label, command, () => isToolsSettings(text, label));
  // No source: an empty file or one that is not YAML, neither of which is a settings file.
  return refusalOf(text, label, command, () => read.source !== null && toolsConfig.safeParse(read.data).success);
}

function refusalOf(text: string, label: string, command: string, isSettings: () => boolean): string | null {
  const first = text.split("\n").find((l) => l.trim() !== "");
  if (first !== undefined && first.trimStart().startsWith("{") && isTaskRow(first))
    return `error: ${label} holds tasks on your own tools, which ${command} does not judge on its own: ${JUDGED} (worlds tools run; worlds tools doctor checks their settings)`;
  if (isSettings())
    return `error: ${label} puts the tasks on your own tools, which ${command} does not judge on its own: ${JUDGED} (worlds tools run --config ${label})`;
  return null;
}
