// The rubric grader and the end-state checks (docs/replay.md, "Grading"): one record per run, reward = share met.
export { gradeEndState, gradeRubric, gradeTask, type RubricJudge } from "./grade";
export { RUBRIC_PROMPT_VERSION, RUBRIC_SYSTEM, RUBRIC_MAX_TOKENS, rubricRequest, rubricUserMessage, rubricAnswer, type RubricAnswer, type RubricCase } from "./prompt";
export { rubricRecord, criterionResult, RUBRIC_GRADER, END_STATE_GRADER, RUBRIC_OUTCOMES, type RubricRecord } from "./record";
export { checkEndState, checkClaim, type CriterionResult } from "../checks/end-state";
export { writesOf, readTools, messageText, type GradedEpisode } from "../checks/episode";
