// Tasks for one dial at one level. The task's base draw is keyed by the file's digest, the dial, the seed and the
// index, never by the level: two levels of a dial start from the same draw and differ in the dial's part alone.
// Its id also names the level, so every arm's tasks have ids of their own.
import { sha256Hex } from "../../../util/canonical";
import { keyedDraw } from "../simulate/draw";
import { CannotGenerate } from "../tasks/parts";
import { taskOf, type Flow, type ToolsTask } from "../tasks/generate";
import type { ToolSet } from "../toolset";
import { armName, dialReach, levelLabel, type DialName } from "./catalog";
import { DIAL_PLANS } from "./plans";

export interface DialArmOptions {
  dial: DialName;
  level: number;
  count: number;
  seed: number;
  clockUnix: number;
  intents?: Record<string, string>;
  flows?: Flow[];
}

export async function generateDialArm(set: ToolSet, o: DialArmOptions): Promise<ToolsTask[]> {
  if (set.setRefusal) throw new CannotGenerate(`the tool set is refused: ${set.setRefusal}`);
  const flows = o.flows ?? [];
  const reach = dialReach(set, flows).find((r) => r.dial === o.dial)!;
  if (reach.unavailable !== undefined) throw new CannotGenerate(`the ${o.dial} dial is unavailable on this set: ${reach.unavailable}`);
  if (!reach.levels.includes(o.level)) throw new CannotGenerate(`the ${o.dial} dial has no level ${o.level} on this set (its levels: ${reach.levels.join(", ")})`);
  const intents = o.intents ?? {};
  const allIntents = set.tools.every((t) => intents[t.name] !== undefined || (t.title !== undefined && intents[t.title] !== undefined));
  const arm = armName(o.dial, o.level);
  const tasks: ToolsTask[] = [];
  for (let index = 0; index < o.count; index++) {
    const id = `t_${(await sha256Hex(`${set.sha256}:${arm}:${o.seed}:${index}`)).slice(0, 16)}`;
    const d = keyedDraw(`${set.sha256}:dial:${o.dial}:${o.seed}:${index}`);
    const rec = (n: number) => `rec_${id.slice(2, 14)}${n}`;
    const parts = DIAL_PLANS[o.dial]({ set, index, d, clockUnix: o.clockUnix, intents, flows, rec, drawSeed: o.seed }, o.level);
    const { plan } = parts;
    tasks.push({
      ...taskOf({ set, id, arm, seed: o.seed, index, plan, intents: allIntents, definitions: parts.definitions, faults: parts.faults }),
      dial: { name: o.dial, level: o.level, label: levelLabel(o.dial, o.level) },
      ...(parts.history ? { history: parts.history } : {}),
    });
  }
  return tasks;
}
