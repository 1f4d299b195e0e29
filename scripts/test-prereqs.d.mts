// Types for the test prerequisites check, so TypeScript tests and vitest's global setup can use it.
export interface MachineFacts {
  env: Record<string, string | undefined>;
  /** Whether the binary at this path exists and answers --version. */
  runs(path: string): boolean;
  isRoot: boolean;
  hasAptGet: boolean;
}
export type BrowserPlan = { kind: "found"; path: string } | { kind: "install"; command: string; path: string } | { kind: "missing"; message: string };
export declare const BROWSER_PATHS: readonly string[];
export declare const BROWSER_ENV: string;
export declare const APT_INSTALL: string;
export declare function planBrowser(facts: MachineFacts): BrowserPlan;
export declare function nodeProblem(version: string): string | null;
export declare function findBrowser(): string;
export declare function ensureBrowser(log?: (line: string) => void): string;
export declare function checkPrerequisites(log?: (line: string) => void): { browser: string };
