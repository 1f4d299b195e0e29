// Judging an episode's record: every task the world held that has a case gets a judge record on its grade.
// The calls run at once (the model client bounds them); each task's outcome is its own, so one timeout or
// malformed answer never costs another task its judgement.
import type { EpisodeRecordInput } from "../results/input";
import type { JudgeCase } from "./case";
import { judgeCase, type JudgeSetup } from "./judge";

export async function judgeEpisodeRecord(setup: JudgeSetup, record: EpisodeRecordInput, cases: ReadonlyMap<number, JudgeCase>): Promise<void> {
  const grades = record.grades ?? [];
  await Promise.all(
    grades.map(async (g) => {
      const c = cases.get(g.ticket);
      if (c) g.judge = await judgeCase(setup, c);
    }),
  );
}
