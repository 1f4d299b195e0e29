import { describe, expect, it } from "vitest";
import type { WorldDiff } from "../world/diff/types";
import type { TaskGrade } from "../kinds/account/grader/types";
import { earlyResults } from "./early";
import { evidenceFromGrade } from "./evidence";

describe("earlyResults", () => {
  it("carries the contract with the status's exit code", () => {
    expect(earlyResults({ status: "setup_failed", reason: "no server at http://127.0.0.1:9", next_action: "start one: --server auto" })).toEqual({
      schema: "worlds.results/1",
      status: "setup_failed",
      reason: "no server at http://127.0.0.1:9",
      next_action: "start one: --server auto",
      exit_code: 3,
      generated_at: null,
    });
    expect(earlyResults({ status: "configuration_incomplete", reason: "bad flag", next_action: "worlds passk --help" }).exit_code).toBe(2);
    expect(earlyResults({ status: "interrupted", signal: "SIGINT" })).toMatchObject({ exit_code: 130, reason: "stopped by SIGINT before any episode ran" });
  });
});

describe("evidenceFromGrade", () => {
  const diff: WorldDiff = {
    world: "w1",
    seed: { name: "s", hash: "h" },
    clock: "2026-01-01T00:00:00Z",
    counts: { created: { refunds: 1 }, updated: { charges: 1 }, deleted: {} },
    entries: [
      { type: "refunds", id: "re_1", op: "created", customer: "cus_1", before: null, after: { id: "re_1", amount: 2430, charge: "ch_1" }, request_ids: ["r1"] },
      {
        type: "charges",
        id: "ch_1",
        op: "updated",
        customer: "cus_1",
        before: { id: "ch_1", amount_refunded: 0, big: "x".repeat(1000) },
        after: { id: "ch_1", amount_refunded: 2430, big: "x".repeat(1000) },
        fields: { amount_refunded: { before: 0, after: 2430 } },
        request_ids: ["r1"],
      },
    ],
  };
  const grade = {
    reason: "refunded $24.30 on ch_1; the key asked for ch_2",
    evidence: {
      entries: [
        { type: "refunds", id: "re_1", op: "created" },
        { type: "charges", id: "ch_1", op: "updated", fields: ["amount_refunded"] },
        { type: "invoices", id: "in_gone", op: "updated", fields: ["status"] },
      ],
      sentences: ["I refunded you."],
      notes: ["target mismatch"],
    },
  } as unknown as TaskGrade;

  it("resolves references to the diff's entries, trimming updates to their changed fields", () => {
    const e = evidenceFromGrade(grade, diff);
    expect(e.diff[0]).toEqual({ type: "refunds", id: "re_1", op: "created", customer: "cus_1", request_ids: ["r1"], after: { id: "re_1", amount: 2430, charge: "ch_1" } });
    expect(e.diff[1]).toEqual({ type: "charges", id: "ch_1", op: "updated", customer: "cus_1", request_ids: ["r1"], fields: { amount_refunded: { before: 0, after: 2430 } } });
    expect(e.diff[2]).toEqual({ type: "invoices", id: "in_gone", op: "updated", fields: ["status"] });
    expect(e.notes).toEqual(["refunded $24.30 on ch_1; the key asked for ch_2", "target mismatch"]);
    expect(e.reply_sentences).toEqual(["I refunded you."]);
  });
});
