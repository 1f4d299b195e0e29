// What `import { runTask, loadTasks } from "worlds"` gives: the RL episode client and the task file reader (docs/replay.md, "runTask"). Runtime-neutral
// (fetch only) and built to dist/lib with its declarations; the CLI is the package's bin, not part of this.
export { runTask } from "../core/episode-api/run-task";
export { EpisodeClientError } from "../core/episode-api/toolbox";
export { loadTasks, parseTasks, TaskFileError } from "../core/episode-api/load-tasks";
export type { EpisodeAgent, EpisodeFetch, EpisodeGrade, EpisodeMessage, EpisodeSurfaces, RunTaskOptions, RunTaskResult, Toolbox, ToolboxAnthropicTool, ToolboxOpenAiTool } from "../core/episode-api/shapes";
