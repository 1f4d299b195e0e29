// Runs, runtime-neutral: planning episodes, the task an agent gets, grading a world into an episode record,
// signing agent requests, and the hosted results. Used by the Worker's queue consumer (and meant for the CLI).
export * from "./plan";
export * from "./task";
export * from "./record";
export * from "./traffic";
export * from "./signature";
export * from "./request";
export * from "./results";
export * from "./view";
export * from "./work";
