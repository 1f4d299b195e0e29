// The CLI's response cache: one JSON file per answer under .worlds/cache/models/ in the working directory (the
// directory `worlds serve --persist` and init already use). Written to a temporary name and renamed, so two
// runs writing the same answer, or a run killed mid-write, never leave a torn entry.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isCachedAnswer, type CachedAnswer, type ModelCache } from "../../core/models/index";

export const MODEL_CACHE_DIR = join(".worlds", "cache", "models");

export class FileCache implements ModelCache {
  constructor(readonly dir: string) {}

  private path(key: string): string {
    return join(this.dir, key.slice(0, 2), `${key}.json`);
  }

  async get(key: string): Promise<CachedAnswer | null> {
    if (!/^[0-9a-f]{64}$/.test(key)) return null;
    try {
      const v: unknown = JSON.parse(readFileSync(this.path(key), "utf8"));
      return isCachedAnswer(v) ? v : null;
    } catch {
      return null; // absent or torn: a miss
    }
  }

  async put(key: string, value: CachedAnswer): Promise<void> {
    if (!/^[0-9a-f]{64}$/.test(key)) return;
    const path = this.path(key);
    mkdirSync(join(this.dir, key.slice(0, 2)), { recursive: true });
    // Answers quote tickets and replies: the directory keeps itself out of git, as test runners' caches do.
    const ignore = join(this.dir, ".gitignore");
    if (!existsSync(ignore)) writeFileSync(ignore, "# worlds' cache of model answers (docs/models.md): never committed\n*\n");
    const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    writeFileSync(tmp, JSON.stringify(value));
    renameSync(tmp, path);
  }
}
