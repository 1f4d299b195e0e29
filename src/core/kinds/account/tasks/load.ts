// compileTasks with the loading left to the caller: the CLI reads files beside the tasks file, the Worker looks
// names up in its bundled seeds. The compiler decides what to ask for; the caller decides where it comes from.
import { compileTasks, type CompileOptions, type CompileResult, type IdentityMapInput } from "./compile";
import { readTasksFile, type TasksFileRead } from "./read";

export type SeedLoad = { ok: true; document: unknown; label: string } | { ok: false; message: string };

export interface CompileFileInput {
  text: string | Uint8Array;
  fileName: string;
  /** Resolves the file's `seed:` (a .json path relative to the file, or a library name). */
  loadSeed(ref: string): Promise<SeedLoad>;
  /** Resolves the file's `identity_map:`; absent = this caller never reads identity maps (the server). */
  loadIdentityMap?(ref: string): Promise<IdentityMapInput>;
  options?: CompileOptions;
  /** Without a loader for identity maps, what a requester the seed does not know should be told. */
  noIdentityMapHint?: string;
  /** Checks the file's `policy:` reference; returns a problem message, or null when it is fine. */
  checkPolicy?(ref: string): Promise<string | null>;
  /** Checks the file's `scenario:` (a library name or a file); a problem message, or null when it is fine. */
  checkScenario?(ref: string): Promise<string | null>;
  /** readTasksFile of `text`, when the caller has already parsed it (the YAML parse is most of a compile). */
  read?: TasksFileRead;
}

export async function compileTasksFile(input: CompileFileInput): Promise<CompileResult> {
  const read = input.read ?? readTasksFile(input.text, input.fileName);
  if (!read.source) return compileTasks({ text: input.text, fileName: input.fileName, seed: null, read });
  let seed: unknown = null;
  let seedError: string | undefined = "";
  let seedLabel: string | undefined;
  if (read.refs.seed !== null) {
    const loaded = await input.loadSeed(read.refs.seed);
    if (loaded.ok) (seed = loaded.document), (seedError = undefined), (seedLabel = loaded.label);
    else seedError = loaded.message;
  }
  let identityMap: IdentityMapInput | null = null;
  if (read.refs.identity_map !== null) {
    identityMap = input.loadIdentityMap ? await input.loadIdentityMap(read.refs.identity_map) : { unavailable: input.noIdentityMapHint ?? "this caller does not read identity maps" };
  }
  const fieldProblems: Array<{ path: string[]; message: string }> = [];
  if (read.refs.policy !== null && input.checkPolicy) {
    const problem = await input.checkPolicy(read.refs.policy);
    if (problem) fieldProblems.push({ path: ["policy"], message: `policy: ${problem}` });
  }
  if (read.refs.scenario !== null && input.checkScenario) {
    const problem = await input.checkScenario(read.refs.scenario);
    if (problem) fieldProblems.push({ path: ["scenario"], message: `scenario: ${problem}` });
  }
  return compileTasks({ text: input.text, fileName: input.fileName, seed, seedError, seedLabel, identityMap, options: input.options, read, fieldProblems });
}
