// init's five questions. Each has a flag; a question its flag did not answer is asked on a terminal, and takes
// its default otherwise (--yes, CI, a pipe). Answers are checked the same way whichever way they came.
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { AUTHORITIES, parseAuthorities, type Authority } from "./packs";

export interface InitAnswers {
  authorities: Authority[];
  /** "library", "stripe" (init imports the account now), or the path of a seed file (from `worlds seed import`), as given. */
  account: string;
  /** A help desk export to import, or null. */
  tickets: string | null;
  /** "default" (the library's policy), or the path of a policy file, as given. */
  policy: string;
  ci: boolean;
}

export interface GivenAnswers {
  authorities?: string;
  account?: string;
  tickets?: string;
  policy?: string;
  ci?: boolean;
}

/** Asks one question; resolves to the typed answer ("" = take the default). */
export type Ask = (question: string) => Promise<string>;

interface Question<T> {
  prompt: string;
  fallback: string;
  parse(text: string): { ok: true; value: T } | { ok: false; message: string };
}

function fileAnswer(cwd: string, what: string, allowDefault: string | null) {
  return (text: string): { ok: true; value: string } | { ok: false; message: string } => {
    const t = text.trim();
    if (allowDefault !== null && (t === "" || t.toLowerCase() === allowDefault)) return { ok: true, value: allowDefault };
    if (!existsSync(resolve(cwd, t))) return { ok: false, message: `${what} ${t}: no such file` };
    if (!statSync(resolve(cwd, t)).isFile()) return { ok: false, message: `${what} ${t} is not a file` };
    return { ok: true, value: t };
  };
}

function questions(cwd: string) {
  return {
    authorities: {
      prompt: `Which authorities does your agent hold? (${AUTHORITIES.join(", ")}; comma-separated, all, or none)`,
      fallback: "all",
      parse: (t: string) => parseAuthorities(t.trim() === "" ? "all" : t),
    } satisfies Question<Authority[]>,
    account: {
      prompt: "Which account? library (the bundled Acme account), stripe (import yours now with $STRIPE_API_KEY), or the path of a seed from `worlds seed import`",
      fallback: "library",
      parse: (t: string) => (t.trim().toLowerCase() === "stripe" ? { ok: true as const, value: "stripe" } : fileAnswer(cwd, "seed", "library")(t)),
    } satisfies Question<string>,
    tickets: {
      prompt: "A ticket export to bring in (a CSV or JSON file; blank for none)",
      fallback: "",
      parse: (t: string) => (t.trim() === "" || t.trim().toLowerCase() === "none" ? { ok: true as const, value: "" } : fileAnswer(cwd, "ticket export", null)(t)),
    } satisfies Question<string>,
    policy: {
      prompt: "The support policy: default (the library's) or the path of your own",
      fallback: "default",
      parse: fileAnswer(cwd, "policy", "default"),
    } satisfies Question<string>,
    ci: {
      prompt: "Write a GitHub Actions workflow that runs the crash test on pull requests? (yes/no)",
      fallback: "yes",
      parse: (t: string) => {
        const w = t.trim().toLowerCase();
        if (w === "" || w === "y" || w === "yes") return { ok: true as const, value: "yes" };
        if (w === "n" || w === "no") return { ok: true as const, value: "no" };
        return { ok: false as const, message: `answer yes or no (got '${t.trim()}')` };
      },
    } satisfies Question<string>,
  };
}

export class AnswerError extends Error {}

/**
 * The answers: flags first, then `ask` for the rest (null = take the defaults). A flag with a bad value is an
 * error; a bad typed answer is asked again, three times at most.
 */
export async function collectAnswers(cwd: string, given: GivenAnswers, ask: Ask | null, note: (line: string) => void): Promise<InitAnswers> {
  const q = questions(cwd);
  async function answer<T>(key: string, question: Question<T>, flagValue: string | undefined, flagName: string): Promise<T> {
    if (flagValue !== undefined) {
      const r = question.parse(flagValue);
      if (!r.ok) throw new AnswerError(`--${flagName}: ${r.message}`);
      return r.value;
    }
    if (!ask) {
      const r = question.parse(question.fallback);
      if (!r.ok) throw new AnswerError(`${key}: the default does not apply here (${r.message})`);
      return r.value;
    }
    for (let tries = 0; tries < 3; tries++) {
      const text = await ask(`${question.prompt} [${question.fallback || "none"}] `);
      const r = question.parse(text);
      if (r.ok) return r.value;
      note(`  ${r.message}`);
    }
    throw new AnswerError(`no usable answer to: ${question.prompt}`);
  }
  const authorities = await answer("authorities", q.authorities, given.authorities, "authorities");
  const account = await answer("account", q.account, given.account, "account");
  const tickets = await answer("tickets", q.tickets, given.tickets, "tickets");
  const policy = await answer("policy", q.policy, given.policy, "policy");
  const ci = await answer("ci", q.ci, given.ci === undefined ? undefined : given.ci ? "yes" : "no", given.ci === false ? "no-ci" : "ci");
  return { authorities, account, tickets: tickets || null, policy, ci: ci === "yes" };
}
