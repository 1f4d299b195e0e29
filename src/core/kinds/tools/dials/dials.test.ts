// Every dial on the spec's five-tool set (and, for block, on a wider one): the same bytes twice; the careful agent
// passes at every level; the first level and the top level of a dial differ in that dial's part alone; and each
// dial's own way of failing is graded as it should be.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { WIDE_READS, wideToolFile } from "../../../../../test/fixtures/tools/wide";
import { CLOCK, episode, solve } from "../../../../../test/node/helpers/tools-episode";
import type { ToolsTask } from "../tasks/generate";
import { importToolSet, type ToolSet } from "../toolset";
import { dialReach, DIALS, type DialName } from "./catalog";
import { generateDialArm } from "./generate";
import { historyTokens } from "./plans";
import { tokensOf } from "./tokens";

const text = readFileSync(new URL("../../../../../test/fixtures/tools/orders.openai.json", import.meta.url), "utf8");
const READS = ["get_order", "search_orders", "list_channels"];
const FLOWS = [
  { from: "get_order", field: "id", to: "refund_order", param: "order_id" },
  { from: "refund_order", field: "id", to: "notify_customer", param: "order_id" },
];
const sets = new Map<string, ToolSet>();
async function setFor(dial: DialName): Promise<ToolSet> {
  const key = dial === "block" ? "wide" : "orders";
  if (!sets.has(key)) sets.set(key, await importToolSet(key === "wide" ? wideToolFile(text) : text, { name: "acme", read: [...READS, ...(key === "wide" ? WIDE_READS : [])] }));
  return sets.get(key)!;
}

async function levels(dial: DialName): Promise<number[]> {
  const r = dialReach(await setFor(dial), FLOWS).find((x) => x.dial === dial)!;
  expect(r.unavailable, dial).toBeUndefined();
  return r.levels!;
}

const arm = async (dial: DialName, level: number, seed = 1, count = 3) => generateDialArm(await setFor(dial), { dial, level, count, seed, clockUnix: CLOCK, flows: FLOWS });

/** A task with its own identity (ids, record ids, the arm) taken out, for comparing two levels. */
function neutral(t: ToolsTask): unknown {
  const recs = t.world.task.writes.map((w) => w.record);
  const json = JSON.stringify({ ...t, id: "", arm: "", dial: null, world: { ...t.world, task: { ...t.world.task, id: "" } } });
  return JSON.parse(recs.reduce((s, r, i) => s.split(r).join(`rec#${i}`), json));
}

/** Each dial's part, undone: what is left must be the same at the first and the top level. */
const UNDO: Record<DialName, (t: ToolsTask, base: ToolsTask) => unknown> = {
  similarity: (t) => {
    const strip = (s: string) => s.replace(/_\d{4}$/, "");
    const seen = new Set<string>();
    const definitions = t.world.definitions
      .map((d) => ({ ...d, name: strip(d.name), description: d.description.replace(/ \(account \d{4}\)$/, "") }))
      .filter((d) => (seen.has(d.name) ? false : (seen.add(d.name), true)));
    const scrub = <T>(x: T): T => JSON.parse(JSON.stringify(x).replace(/"([A-Za-z_]+)_\d{4}"/g, '"$1"').replace(/ This is for account \d{4}\./, ""));
    return neutral(scrub({ ...t, world: { ...t.world, definitions } }));
  },
  faults: (t) => neutral({ ...t, world: { ...t.world, task: { ...t.world.task, faults: [] } } }),
  history: (t) => neutral({ ...t, history: undefined }),
  block: (t, base) => neutral({ ...t, world: { ...t.world, definitions: base.world.definitions.length > t.world.definitions.length ? base.world.definitions : t.world.definitions } }),
  // Fewer values stated: the stated ones keep their values, the write is the same call.
  arguments: (t) => ({ tool: t.expected.calls[0].name, first2: Object.entries(t.world.task.writes[0].arguments).slice(0, 2) }),
  // The value is split, not changed: the write and the joined pieces are the same.
  spread: (t) => ({ write: t.expected.calls.at(-1), joined: t.world.task.deliveries.map((d) => d.value).join(""), first: t.expected.calls[0] }),
  // A longer chain ends in the same call.
  depth: (t) => ({ last: t.expected.calls.at(-1), lastWrite: t.world.task.writes.at(-1)!.arguments, definitions: t.world.definitions }),
  // The same calls; only how the second chain's first value arrives differs.
  shape: (t) => ({ calls: t.expected.calls, writes: t.world.task.writes.map((w) => w.arguments), definitions: t.world.definitions }),
};

describe("the dials on a team's tools", () => {
  it("the spec's five-tool set reaches every dial but block; the reasons name what is missing", async () => {
    const set = await setFor("faults");
    const reach = dialReach(set, FLOWS);
    expect(reach.filter((r) => r.unavailable).map((r) => r.dial)).toEqual(["block"]);
    expect(reach.find((r) => r.dial === "block")!.unavailable).toMatch(/at least 16 usable tools; the set has 5/);
    expect(reach.find((r) => r.dial === "depth")!.levels).toEqual([1, 2, 3]);
    expect(reach.find((r) => r.dial === "arguments")!.levels).toEqual([2, 3]);
    const bare = dialReach(await importToolSet(text, { name: "acme" }), []);
    expect(bare.find((r) => r.dial === "depth")!.unavailable).toMatch(/--own-flow FROM.FIELD:TO.PARAM.*flows:/);
    expect(bare.find((r) => r.dial === "shape")!.unavailable).toMatch(/--own-flow/);
    expect(bare.find((r) => r.dial === "history")!.unavailable).toMatch(/read tool/);
  });

  it.each(DIALS.map((d) => [d]))("%s: deterministic; passed at every level; first and top level differ in the dial alone", async (dial) => {
    const ls = await levels(dial);
    for (const level of ls) {
      const a = await arm(dial, level);
      expect(JSON.stringify(await arm(dial, level))).toBe(JSON.stringify(a));
      for (const t of a) {
        expect(t.dial).toMatchObject({ name: dial, level });
        expect(solve(t).grade("Done.").verdict, `${dial} ${level}: ${t.request}`).toBe("passed");
        for (const c of t.expected.calls) expect(t.request).not.toMatch(new RegExp(`\\b${c.name}\\b`));
      }
    }
    const first = await arm(dial, ls[0]);
    const top = await arm(dial, ls[ls.length - 1]);
    for (let i = 0; i < first.length; i++) {
      expect(JSON.stringify(top[i])).not.toBe(JSON.stringify(first[i]));
      expect(top[i].id).not.toBe(first[i].id);
      expect(UNDO[dial](top[i], first[i])).toEqual(UNDO[dial](first[i], top[i]));
    }
    const other = await arm(dial, ls[0], 2);
    expect(other.map((t) => t.id).filter((id) => first.some((x) => x.id === id))).toEqual([]);
  });

  it("similarity: copies of the target for other accounts; calling one is a side effect and the goal is missed", async () => {
    const [t] = await arm("similarity", 3, 1, 1);
    const target = t.expected.calls[0].name;
    const base = target.replace(/_\d{4}$/, "");
    const copies = t.world.definitions.filter((d) => d.name.startsWith(`${base}_`));
    expect(copies).toHaveLength(4);
    expect(new Set(copies.map((c) => c.description.replace(/\d{4}/, "N"))).size).toBe(1);
    expect(t.request).toContain(`account ${target.slice(-4)}`);
    const w = episode(t.world);
    w.call({ name: copies.find((c) => c.name !== target)!.name, arguments: t.expected.calls[0].arguments });
    const g = w.grade("Done.");
    expect(g.verdict).toBe("wrong_state");
    expect(g.side_effects).toHaveLength(1);
  });

  it("faults: the planned calls answer unavailable, the same call then works; giving up is wrong_state", async () => {
    const [t] = await arm("faults", 4, 1, 1);
    expect(t.world.task.faults).toEqual([1, 2, 3, 4].map((nth) => ({ name: t.expected.calls[0].name, nth })));
    const w = solve(t);
    expect(w.calls.map((c) => c.status)).toEqual([503, 503, 503, 503, 200]);
    expect(w.grade("Done.").verdict).toBe("passed");
    expect(solve(t, episode(t.world), { retry: false }).grade("It is down.").verdict).toBe("wrong_state");
  });

  it("history: seeded read calls totalling the level in o200k tokens, each answered as the world answers it", async () => {
    for (const level of [300, 600, 1200, 2400]) {
      for (const t of await arm("history", level)) {
        const h = t.history!;
        expect(h.tokens).toBe(h.calls.reduce((s, c) => s + historyTokens(c), 0));
        expect(h.tokens).toBeGreaterThanOrEqual(level);
        expect(h.tokens - historyTokens(h.calls.at(-1)!)).toBeLessThan(level);
        const w = episode(t.world);
        for (const c of h.calls.slice(0, 3)) expect(w.call({ name: c.name, arguments: c.arguments })).toEqual({ ok: true, result: c.result });
      }
    }
    // A real tokenizer: digits and JSON punctuation are not four characters a token.
    expect(tokensOf('{"order_id":"K3X9QZ"}')).toBeGreaterThan(5);
    expect((await arm("history", 0))[0].history).toEqual({ calls: [], tokens: 0 });
  });

  it("block: that many tools from the set only, the target always there; a smaller block is a subset of a larger", async () => {
    const set = await setFor("block");
    const [small] = await arm("block", 8, 1, 1);
    const [big] = await arm("block", 16, 1, 1);
    expect(small.world.definitions).toHaveLength(8);
    expect(big.world.definitions).toHaveLength(16);
    expect(small.world.definitions.map((d) => d.name)).toContain(small.expected.calls[0].name);
    for (const d of big.world.definitions) expect(set.tools.some((t) => t.name === d.name)).toBe(true);
    for (const d of small.world.definitions) expect(big.world.definitions.map((x) => x.name)).toContain(d.name);
  });

  it("arguments: the level is how many values are stated and checked; an unstated one the agent adds is not checked", async () => {
    const [two] = await arm("arguments", 2, 1, 1);
    const [three] = await arm("arguments", 3, 1, 1);
    expect(Object.keys(two.world.task.writes[0].arguments)).toHaveLength(2);
    expect(Object.keys(three.world.task.writes[0].arguments)).toHaveLength(3);
    const extra = Object.keys(three.expected.calls[0].arguments).find((k) => !(k in two.expected.calls[0].arguments))!;
    expect(two.request).not.toContain(`${extra} `);
    const w = episode(two.world);
    w.call({ name: two.expected.calls[0].name, arguments: { ...two.expected.calls[0].arguments, [extra]: three.expected.calls[0].arguments[extra] } });
    expect(w.grade("Done.").verdict).toBe("passed");
  });

  it("spread: the value is cut across that many reads' answers; using one piece is not the goal", async () => {
    const [t] = await arm("spread", 4, 1, 1);
    expect(t.world.task.deliveries).toHaveLength(4);
    expect(t.expected.calls.slice(0, 4).every((c) => c.name === t.expected.calls[0].name)).toBe(true);
    const w = episode(t.world);
    const pieces = t.expected.calls.slice(0, 4).map((c) => w.call(c));
    const write = t.expected.calls[4];
    const piece = pieces[0].ok ? String((pieces[0].result as Record<string, unknown>)[t.world.task.deliveries[0].path]) : "";
    w.call({ name: write.name, arguments: { ...write.arguments, order_id: piece.padEnd(6, "Z") } });
    expect(w.grade("Done.").verdict).toBe("wrong_state");
  });

  it("depth: the chain's last call waits for the steps before it (not_ready)", async () => {
    const [t] = await arm("depth", 3, 1, 1);
    expect(t.expected.calls.map((c) => c.name)).toEqual(["get_order", "refund_order", "notify_customer"]);
    const w = episode(t.world);
    expect(w.call(t.expected.calls[2])).toMatchObject({ ok: false, error: { code: "not_ready" } });
  });

  it("shape: in sequence, the second chain's first value comes from the first chain's last answer", async () => {
    const [side] = await arm("shape", 0, 1, 1);
    const [seq] = await arm("shape", 1, 1, 1);
    expect(seq.world.task.deliveries.length).toBe(side.world.task.deliveries.length + 1);
    const handed = seq.world.task.deliveries.at(-1)!;
    expect(handed.call).toEqual(seq.expected.calls[Math.floor(seq.expected.calls.length / 2) - 1]);
    expect(side.request).toContain(JSON.stringify(handed.value));
    expect(seq.request).not.toContain(JSON.stringify(handed.value));
  });
});
