// Where a run's artefacts live in R2. Seeds and rubrics are content-addressed (a rerun of the same file shares
// them); everything else is per run.
export const seedKey = (hash: string) => `seeds/${hash}.json`;
export const rubricKey = (hash: string) => `rubrics/${hash}.json`;
/** One episode's trace: every request its agent made and every answer, as JSON lines. */
export const traceKey = (runId: string, seq: number) => `traces/${runId}/${seq}.jsonl`;
export const resultsKey = (runId: string) => `results/${runId}.json`;
export const reportKey = (runId: string) => `reports/${runId}.html`;
/** An episode record too large for a D1 value (2 MB) is kept here instead. */
export const episodeRecordKey = (runId: string, seq: number) => `episodes/${runId}/${seq}.json`;
