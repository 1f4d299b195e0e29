// The model response cache of hosted runs: one R2 object per answer, keyed by the canonical request's hash, so a
// rerun of the same judgement on the server costs nothing, whichever isolate answers it.
import { isCachedAnswer, type CachedAnswer, type ModelCache } from "../../core/models/index";

export const modelCacheKey = (hash: string) => `model-cache/${hash}.json`;

export class R2ModelCache implements ModelCache {
  constructor(private readonly bucket: R2Bucket) {}

  async get(key: string): Promise<CachedAnswer | null> {
    const obj = await this.bucket.get(modelCacheKey(key));
    if (!obj) return null;
    try {
      const v: unknown = JSON.parse(await obj.text());
      return isCachedAnswer(v) ? v : null;
    } catch {
      return null;
    }
  }

  async put(key: string, value: CachedAnswer): Promise<void> {
    await this.bucket.put(modelCacheKey(key), JSON.stringify(value), { httpMetadata: { contentType: "application/json" } });
  }
}
