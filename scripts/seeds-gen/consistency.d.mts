// Types for the generator's money-and-time checks, so TypeScript tests can call them.
export declare function consistencyProblems(seed: { clock: string; data: Record<string, Array<Record<string, unknown>>> }): string[];
