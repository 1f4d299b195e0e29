import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import bundledRanks from "gpt-tokenizer/bpeRanks/o200k_base";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { ranksOf, tokensOf } from "./tokens";

const rankFile = createRequire(import.meta.url).resolve("gpt-tokenizer/data/o200k_base.tiktoken");

describe("token counts from tiktoken's rank file", () => {
  it("reads the rank file into the same table gpt-tokenizer bundles as JavaScript", () => {
    const ranks = ranksOf(readFileSync(rankFile, "utf8"));
    expect(ranks.length).toBe(bundledRanks.length);
    expect(ranks).toEqual(bundledRanks);
  });

  it("counts as gpt-tokenizer's own o200k_base entry does", () => {
    const texts = ["", "hello world", "Refund ch_3Nx 12.50 USD — déjà vu 日本語 🤖", JSON.stringify({ id: "cus_1", email: "a@b.c", metadata: { tier: "gold" } }), "\u0000\uFFFD\t\n  x".repeat(50)];
    for (const t of texts) expect(tokensOf(t), t).toBe(countTokens(t));
  });
});
