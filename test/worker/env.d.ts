declare namespace Cloudflare {
  interface GlobalProps {
    mainModule: typeof import("../../src/index");
    durableNamespaces: "World";
  }
  interface Env {
    WORLD: DurableObjectNamespace<import("../../durable-objects/world").World>;
    EPISODES: Queue<unknown>;
    DB: D1Database;
    ARTIFACTS: R2Bucket;
    WORLDS_TOKEN: string;
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
  }
}
