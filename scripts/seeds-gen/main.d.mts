// Types for the generator's entry point, so TypeScript tests can regenerate the library in memory.
/** Every generated file: path relative to the repository root -> its exact contents. */
export declare function generatedFiles(): Record<string, string>;
