import { readFileSync } from "node:fs";
import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";

// tiktoken rank files as their text, as wrangler's Text rule and the CLI build load them (src/core/kinds/tools/dials/tokens.ts).
const tiktokenText = { name: "tiktoken-text", enforce: "pre" as const, load: (id: string) => (id.endsWith(".tiktoken") ? `export default ${JSON.stringify(readFileSync(id, "utf8"))};` : undefined) };

// Two projects: code that runs in the Worker is tested inside the Workers runtime; the CLI, the pure core
// modules and the end-to-end tests (which start the real local server) run in Node.
export default defineConfig(async () => {
  const migrations = await readD1Migrations(path.join(import.meta.dirname, "migrations"));
  return {
    test: {
      projects: [
        {
          plugins: [
            tiktokenText,
            cloudflareTest({
              wrangler: { configPath: "./wrangler.toml" },
              miniflare: {
                // The judge's model is the scripted one, served in-process for this host (test/worker/runs-judge.test.ts).
                bindings: { TEST_MIGRATIONS: migrations, WORLDS_TOKEN: "test-token", OPENAI_BASE_URL: "http://model.test/v1", ANTHROPIC_BASE_URL: "http://model.test" },
                // Replaces wrangler.toml's consumer entries as a whole, so every setting is repeated here (faster batches).
                queueConsumers: {
                  episodes: { maxBatchTimeout: 0.05, maxBatchSize: 10, maxRetries: 3, retryDelay: 1, deadLetterQueue: "episodes-dlq" },
                  "episodes-dlq": { maxBatchTimeout: 0.05, maxBatchSize: 10, maxRetries: 1 },
                },
              },
            }),
          ],
          test: {
            name: "worker",
            include: ["test/worker/**/*.test.ts", "durable-objects/**/*.test.ts", "queues/**/*.test.ts", "src/routes/**/*.test.ts"],
            setupFiles: ["./test/worker/apply-migrations.ts"],
            // vitest's 5 s default fails sound tests on a busy 2-core machine (a hosted run's queue round trips).
            testTimeout: 60_000,
          },
        },
        {
          plugins: [tiktokenText],
          test: {
            name: "node",
            environment: "node",
            include: ["test/node/**/*.test.ts", "src/core/**/*.test.ts", "src/cli/**/*.test.ts"],
            // Brings the browser the report checks need (or stops at once with the fix), before any test runs.
            globalSetup: ["./test/node/global-setup.ts"],
            // End-to-end tests start servers and agents; on a busy 2-core machine a sound one can take minutes.
            testTimeout: 300_000,
            hookTimeout: 300_000,
          },
        },
      ],
    },
  };
});
