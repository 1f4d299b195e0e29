// Reading a script file for `worlds model serve` and the tests: size-bounded, then the core loader's checks.
import { readFileSync, statSync } from "node:fs";
import { loadScript, type ScriptLoad } from "../../core/models/scripted/index";

const MAX_SCRIPT_BYTES = 4 * 1024 * 1024;

export function readScriptFile(path: string): ScriptLoad {
  let size: number;
  try {
    size = statSync(path).size;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { ok: false, problems: [`${path}: ${code === "ENOENT" ? "no such file" : `cannot read it (${code})`}`] };
  }
  if (size > MAX_SCRIPT_BYTES) return { ok: false, problems: [`${path}: ${size} bytes is more than a script may be (${MAX_SCRIPT_BYTES})`] };
  return loadScript(readFileSync(path, "utf8"), path);
}
