// Where seeded bases live between isolates: R2, under the SHA-256 of their content, written once per seed.
import type { Env } from "../../src/env";

const stored = new Set<string>();
const keyOf = (baseKey: string) => `bases/${baseKey}.json`;

export async function storeBase(env: Env, baseKey: string, chunks: readonly string[]): Promise<void> {
  if (stored.has(baseKey)) return;
  if (!(await env.ARTIFACTS.head(keyOf(baseKey)))) {
    await env.ARTIFACTS.put(keyOf(baseKey), JSON.stringify(chunks), { httpMetadata: { contentType: "application/json" } });
  }
  stored.add(baseKey);
}

export async function loadBase(env: Env, baseKey: string): Promise<string[]> {
  const obj = await env.ARTIFACTS.get(keyOf(baseKey));
  if (!obj) throw new Error(`the world's seeded objects (${keyOf(baseKey)}) are missing from the artifacts bucket`);
  return (await obj.json()) as string[];
}
