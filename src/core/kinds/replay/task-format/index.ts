// The portable task format and its reader (docs/replay.md): shared by `worlds evals`, the episode API and runTask.
export * from "./format";
export { loadTasks, MAX_TASKS, type LoadedTask, type LoadResult } from "./load";
