// The conversation graders read: the agent's final output is added once, never again after the person's answer.
import { describe, expect, it } from "vitest";
import { transcriptOf } from "./transcript";

describe("transcriptOf", () => {
  const turns = [
    { role: "person" as const, text: "Refund my duplicate charge." },
    { role: "agent" as const, text: "Done: I refunded it." },
    { role: "person" as const, text: "Thank you!" },
  ];

  it("keeps a final message said to the person and printed as the output once", () => {
    expect(transcriptOf(turns, "Refund my duplicate charge.", "Done: I refunded it.\n")).toEqual([
      { role: "user", content: "Refund my duplicate charge." },
      { role: "assistant", content: "Done: I refunded it." },
      { role: "user", content: "Thank you!" },
    ]);
  });

  it("adds an output the person never heard after the conversation, and the prompt when nothing was said", () => {
    expect(transcriptOf(turns, "p", "One more thing: the fee stays.").at(-1)).toEqual({ role: "assistant", content: "One more thing: the fee stays." });
    expect(transcriptOf([], "Refund me.", "Refunded.")).toEqual([
      { role: "user", content: "Refund me." },
      { role: "assistant", content: "Refunded." },
    ]);
  });
});
