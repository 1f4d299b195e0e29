// The card's pure parts: the figures from a run folder's record and episodes, the one-line compare verdict, the
// markdown and HTML (the same bytes for the same folder, run text kept as text), and the folder's files read back
// with errors that name the file, the line and the field.
import { describe, expect, it } from "vitest";
import { wilson } from "../../../stats/wilson";
import { EVIL, fixtureEpisodes, fixtureRecord } from "./card.fixture";
import { buildCard, compareVerdict } from "./model";
import { parseEpisodes, parseRunRecord, RunFolderError } from "./record";
import { cardHtml, cardMarkdown, compareHtml, compareMarkdown } from "./render";

const card = (r = fixtureRecord(), e = fixtureEpisodes(r)) => buildCard("custom-openai-planner-bbbbbbbb", r, e);
const jsonl = (e: unknown[]) => e.map((x) => JSON.stringify(x)).join("\n") + "\n";

describe("tools card: figures", () => {
  it("each dial's levels against its first: strict pass@1, Wilson intervals, the difference and whether the intervals keep apart", () => {
    const c = card();
    expect(c.dials.map((d) => [d.dial, d.rows.map((r) => r.label)])).toEqual([
      ["faults", ["0", "1", "2"]],
      ["history", ["0 tokens", "600 tokens"]],
    ]);
    const [f0, f1, f2] = c.dials[0].rows;
    expect([f0.passed, f0.kept, f0.rate, f0.delta]).toEqual([6, 6, 1, null]);
    expect(f1).toMatchObject({ passed: 1, kept: 6, interval: wilson(1, 6), apart: true });
    expect(f1.delta).toBeCloseTo(-5 / 6, 10);
    expect(f2).toMatchObject({ passed: 0, rate: 0, delta: -1, apart: true });
    const h600 = c.dials[1].rows[1];
    expect(h600).toMatchObject({ passed: 4, kept: 6, apart: false });
  });

  it("the worst arm is the lowest pass rate, its failures first; none when every kept episode passed", () => {
    const w = card().worst!;
    expect([w.arm, w.dial, w.label, w.rate]).toEqual(["faults-2", "faults", "2", 0]);
    expect(w.episodes).toHaveLength(6);
    expect(w.episodes[0]).toMatchObject({ task: "faults-2-t1", run: 1, verdict: "wrong_state", request: `Refund ${EVIL}: amount 12.5.` });
    const mixed = card().dials[1].rows[1];
    expect(mixed.rate).toBeLessThan(1);
    const r = fixtureRecord();
    const allPass = fixtureEpisodes(r).map((e) => ({ ...e, verdict: "passed" as const }));
    expect(buildCard("x", r, allPass).worst).toBeNull();
  });

  it("task forms (no measure:) are listed on their own, not as levels of one another", () => {
    const r = fixtureRecord();
    const forms = { ...r, tasks: r.tasks.map((t, i) => ({ ...t, arm: i < 5 ? "call" : "flow", dial: null })) };
    const c = buildCard("forms-agent-bbbbbbbb", forms, fixtureEpisodes(forms));
    expect(c.dials).toHaveLength(1);
    expect(c.dials[0].dial).toBeNull();
    expect(c.dials[0].rows.map((x) => [x.arm, x.delta])).toEqual([["call", null], ["flow", null]]);
    expect(cardMarkdown(c)).toContain("## Task forms");
    expect(cardMarkdown(c)).toContain("(a task form, not a level)");
  });

  it("says what it does not claim, the word-match line only when an intent is missing; names the run", () => {
    const c = card();
    expect(c.headline).toBe("Measured on your tools (acme, 5 tools from an OpenAI tools file), with responses simulated from your schemas. Your backend was never called.");
    expect(c.notClaimed.some((l) => l.includes("word match"))).toBe(true);
    const r = fixtureRecord();
    const all = { ...r, tasks: r.tasks.map((t) => ({ ...t, intents: true })) };
    expect(buildCard("x", all, fixtureEpisodes(all)).notClaimed.some((l) => l.includes("word match"))).toBe(false);
    expect(cardMarkdown(c)).toContain("custom-openai-planner-bbbbbbbb: agent openai:planner, 3 repetitions of each task; $0.0123 spent; 30 of 30 episodes kept");
    const command = buildCard("x", { ...r, dollars: null, agent: "node a.mjs", episodes: { kept: 30, total: 40 } }, fixtureEpisodes(r));
    expect(cardMarkdown(command)).toContain("no model spend recorded (the agent was a command); 30 of 40 episodes kept");
  });
});

describe("tools card: compare verdict", () => {
  it("none when the tool file, settings and seed match; else one line naming each difference", () => {
    const a = fixtureRecord();
    expect(compareVerdict(a, fixtureRecord({ agent: "anthropic:other", dollars: 1 }))).toBeNull();
    const b = fixtureRecord({ sha256: "d".repeat(64), seed: 8, settings_sha256: "e".repeat(64), settings: { ...a.settings, seed: 8, tasks_per_arm: 4 } });
    const line = compareVerdict(a, b)!;
    expect(line).toBe("different tool file (sha256 bbbbbbbbbbbb vs dddddddddddd), settings (tasks_per_arm), seeds (7 vs 8): the two cards do not compare, so neither is laid beside the other");
    expect(line).not.toContain("\n");
  });
});

describe("tools card: markdown and HTML", () => {
  it("the same folder gives the same bytes", () => {
    expect(cardMarkdown(card())).toBe(cardMarkdown(card()));
    expect(cardHtml(card())).toBe(cardHtml(card()));
    expect(compareHtml(card(), card())).toBe(compareHtml(card(), card()));
  });

  it("markdown: sections in order, one table row per level, run text that cannot break the table or the code", () => {
    const md = cardMarkdown(card());
    const heads = md.split("\n").filter((l) => l.startsWith("## "));
    expect(heads).toEqual(["## Dial: faults", "## Dial: history", "## What this card does not claim", "## The run", "## Where it broke most: faults at 2 (0% passed)"]);
    expect(md).toContain("| 1 | 1 | 17% | 3%–56% | −83 pts, intervals apart | 6 |");
    expect(md).toContain("| 600 tokens | 4 | 67% | 30%–90% | −33 pts, intervals overlap | 6 |");
    // The arguments and the simulated answer of every call, inside code spans longer than any backtick run in them.
    expect(md).toContain('1. ` refund_order ` → 503');
    expect(md).toContain('   - simulated answer: ` {"error":{"code":"unavailable","message":"The service is unavailable; try again."}} `');
    expect(md).toContain(`> Refund &lt;script&gt;alert("x")&lt;/script&gt; | \`tick\` ${"`".repeat(3)}: amount 12.5.`);
    // Outside code (where markdown renders nothing as HTML), no tag survives.
    expect(md.replace(/^(`{3,})\n[\s\S]*?\n\1$/gm, "")).not.toContain("<script");
    // The reply holds three backticks in a row: its fence is longer.
    expect(md).toContain(["````", `It failed: ${EVIL}`, "I gave up.", "````"].join("\n"));
    expect(md.match(/^### /gm)).toHaveLength(6);
  });

  it("HTML: one self-contained page, run text escaped, the first failing episode open", () => {
    const html = cardHtml(card());
    expect(html).not.toContain("<script");
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(html).not.toMatch(/(src|href)=/);
    expect(html.match(/<details class="episode" open>/g)).toHaveLength(1);
    expect(html.match(/<details class="episode"/g)).toHaveLength(6);
    expect(html).toContain('<pre class="arguments">{\n  &quot;order_id&quot;: &quot;K3X9QZ4&quot;');
    expect(html.match(/<table class="levels">/g)).toHaveLength(2);
  });

  it("side by side: both cards whole with their own figures, the episodes left to each run's card", () => {
    const other = buildCard("custom-anthropic-other-bbbbbbbb", fixtureRecord({ agent: "anthropic:other" }), fixtureEpisodes().map((e) => ({ ...e, verdict: "passed" as const })));
    const md = compareMarkdown(card(), other);
    expect(md.match(/^# /gm)).toEqual(["# ", "# ", "# "]);
    expect(md).toContain("# custom-openai-planner-bbbbbbbb\n");
    expect(md).toContain("# custom-anthropic-other-bbbbbbbb\n");
    expect(md).toContain("faults at 2 (0% passed): its 6 episodes are in this run's own card.");
    expect(md).toContain("Nowhere: every kept episode passed.");
    expect(md).not.toContain("### ");
    const html = compareHtml(card(), other);
    expect(html).toContain('id="card-a"');
    expect(html).toContain('id="card-b"');
    expect(html).not.toContain("<details");
  });
});

describe("tools card: reading the run folder's files", () => {
  const r = fixtureRecord();
  it("reads what a run writes", () => {
    const back = parseRunRecord(JSON.stringify(r), "run.json");
    expect(back).toEqual(r);
    expect(parseEpisodes(jsonl(fixtureEpisodes(r)), "episodes.jsonl", back)).toEqual(fixtureEpisodes(r));
  });

  it("names the file, the line and the field of what does not read", () => {
    const err = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(RunFolderError);
        return (e as Error).message;
      }
      throw new Error("no error");
    };
    expect(err(() => parseRunRecord("{", "runs/x/run.json"))).toMatch(/^runs\/x\/run\.json: not JSON/);
    expect(err(() => parseRunRecord(JSON.stringify({ ...r, sha256: "nope" }), "runs/x/run.json"))).toBe("runs/x/run.json: not a tools run's record: sha256: must be the tool file's SHA-256 in hex");
    expect(err(() => parseRunRecord(JSON.stringify({ ...r, episodes: { kept: -1, total: 3 } }), "run.json"))).toMatch(/^run\.json: not a tools run's record: episodes\.kept: /);
    const eps = fixtureEpisodes(r);
    const lines = jsonl(eps).split("\n");
    lines[3] = JSON.stringify({ ...eps[3], verdict: "great" });
    expect(err(() => parseEpisodes(lines.join("\n"), "episodes.jsonl", r))).toMatch(/^episodes\.jsonl:4: not a traced episode: verdict: /);
    lines[3] = "{not json";
    expect(err(() => parseEpisodes(lines.join("\n"), "episodes.jsonl", r))).toMatch(/^episodes\.jsonl:4: not JSON/);
    lines[3] = JSON.stringify({ ...eps[3], task: "someone-else" });
    expect(err(() => parseEpisodes(lines.join("\n"), "episodes.jsonl", r))).toBe("episodes.jsonl:4: task someone-else is not one of the run's tasks (run.json)");
    expect(err(() => parseEpisodes(jsonl(eps.slice(1)), "episodes.jsonl", r))).toBe("episodes.jsonl: 29 episodes, but run.json says 30 were kept");
    expect(err(() => parseRunRecord(`{"__proto__": {"x": 1}, ${JSON.stringify(r).slice(1)}`, "run.json"))).toMatch(/^run\.json: '__proto__' is not allowed as a key/);
  });
});
