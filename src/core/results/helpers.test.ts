import { describe, expect, it } from "vitest";
import { replyExcerpt, REPLY_EXCERPT_CHARS } from "./excerpt";
import { formatMoney } from "./money";
import { shellLine, shellQuote } from "./shell";
import { signalExitCode } from "./signals";

describe("shellQuote", () => {
  it("leaves plain words alone and single-quotes the rest", () => {
    expect(shellQuote("worlds/tasks.yaml")).toBe("worlds/tasks.yaml");
    expect(shellQuote("--url=http://127.0.0.1:8787")).toBe("--url=http://127.0.0.1:8787");
    expect(shellQuote("")).toBe("''");
    expect(shellQuote("my agent.mjs")).toBe("'my agent.mjs'");
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(shellQuote("$HOME;rm -rf /")).toBe("'$HOME;rm -rf /'");
    expect(shellQuote("a\nb")).toBe("'a\nb'");
  });
  it("round-trips through a real POSIX shell", async () => {
    const { execFileSync } = await import("node:child_process");
    const argv = ["plain", "two words", "it's", "", "$(touch /tmp/nope)", "`x`", "a\\b", 'q"q', "tab\there", "ünïcødé"];
    const out = execFileSync("/bin/sh", ["-c", `printf '%s\\0' ${shellLine(argv)}`]).toString();
    expect(out.split("\0").slice(0, -1)).toEqual(argv);
  });
});

describe("replyExcerpt", () => {
  it("keeps short replies whole and measures UTF-8 bytes", () => {
    expect(replyExcerpt("héllo", null)).toEqual({ excerpt: "héllo", bytes: 6, truncated: false });
  });
  it("cuts long replies on a code point and reports the size produced", () => {
    const long = "😀".repeat(REPLY_EXCERPT_CHARS + 5);
    const r = replyExcerpt(long, null);
    expect(Array.from(r.excerpt)).toHaveLength(REPLY_EXCERPT_CHARS);
    expect(r.truncated).toBe(true);
    expect(r.bytes).toBe(4 * (REPLY_EXCERPT_CHARS + 5));
    expect(replyExcerpt("short", 10_000_000)).toEqual({ excerpt: "short", bytes: 10_000_000, truncated: true });
  });
});

describe("formatMoney", () => {
  it("formats minor units", () => {
    expect(formatMoney(24300, "usd")).toBe("$243.00");
    expect(formatMoney(123456, "USD")).toBe("$1,234.56");
    expect(formatMoney(5, "usd")).toBe("$0.05");
    expect(formatMoney(0, "eur")).toBe("€0.00");
    expect(formatMoney(1500, "jpy")).toBe("¥1,500");
    expect(formatMoney(99, "chf")).toBe("0.99 CHF");
  });
});

describe("signalExitCode", () => {
  it("is 128 + the signal number", () => {
    expect(signalExitCode("SIGINT")).toBe(130);
    expect(signalExitCode("SIGTERM")).toBe(143);
    expect(() => signalExitCode("SIGFOO")).toThrow(/unknown signal/);
  });
});
