export interface Tarball {
  file: string;
  manifest: { name: string; version: string } & Record<string, unknown>;
}
export function startLocalRegistry(opts: { lockfile: string; tarballs: Tarball[]; cache: string }): Promise<{ url: string; stop(): Promise<void> }>;
export function registryEnv(url: string, base?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
