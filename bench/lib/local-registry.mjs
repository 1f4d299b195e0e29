// A stand-in npm registry on loopback, for installing worlds tarballs the way a user installs worlds from the
// registry, without a network: it answers the packument of each tarball given to it, and of every package in
// this project's package-lock.json at the versions the lockfile holds. Their tarballs keep their public URLs and
// integrity, so npm takes them from its cache (filled by this project's `npm ci`); a package the cache lacks
// fails to install instead of reaching out. Used by test/node/e2e-package.test.ts and bench/package-install.mjs.
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { basename, join } from "node:path";

const MANIFEST_FIELDS = ["dependencies", "optionalDependencies", "peerDependencies", "peerDependenciesMeta", "bin", "os", "cpu", "engines", "libc"];

/** Whether npm's content cache (cacache's layout: content-v2/<algorithm>/<hex in 2/2/rest>) holds a tarball. */
function cachedPath(cache, integrity) {
  const [algorithm, b64] = integrity.split(" ")[0].split(/-(.*)/s);
  const hex = Buffer.from(b64, "base64").toString("hex");
  return join(cache, "_cacache", "content-v2", algorithm, hex.slice(0, 2), hex.slice(2, 4), hex.slice(4));
}
const cached = (cache, integrity) => existsSync(cachedPath(cache, integrity));

/** The registry path npm asks for a tarball by when a lockfile has no resolved URL: <name>/-/<basename>-<version>.tgz */
const tarballPath = (name, version) => `${name}/-/${name.split("/").pop()}-${version}.tgz`;

/**
 * Packuments (name -> {name, versions, dist-tags}) for every locked package whose tarball npm's cache holds (a
 * version offered but not cached would send npm to the network), and for the other platforms' binaries;
 * lockfile v3 entries are keyed by path.
 */
function packumentsFromLock(lockPath, cache) {
  const lock = JSON.parse(readFileSync(lockPath, "utf8"));
  const packuments = new Map();
  const inCache = [];
  const notCached = [];
  for (const [path, entry] of Object.entries(lock.packages ?? {})) {
    if (!path || entry.link || !entry.integrity || !entry.version) continue;
    const name = entry.name ?? path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length);
    (cached(cache, entry.integrity) ? inCache : notCached).push([name, entry]);
  }
  // A package with no cached version at all is another platform's binary or one of its dependencies: listed, as
  // the lockfile npm writes must list it, and never fetched.
  const cachedNames = new Set(inCache.map(([name]) => name));
  for (const [name, entry] of [...inCache, ...notCached.filter(([n]) => !cachedNames.has(n))]) {
    const manifest = { name, version: entry.version };
    for (const f of MANIFEST_FIELDS) if (entry[f] !== undefined) manifest[f] = entry[f];
    manifest.dist = { tarball: entry.resolved ?? `https://registry.npmjs.org/${tarballPath(name, entry.version)}`, integrity: entry.integrity };
    add(packuments, manifest);
  }
  return packuments;
}

function add(packuments, manifest) {
  const p = packuments.get(manifest.name) ?? { name: manifest.name, "dist-tags": {}, versions: {} };
  p.versions[manifest.version] = manifest;
  const latest = p["dist-tags"].latest;
  if (!latest || compareVersions(manifest.version, latest) > 0) p["dist-tags"].latest = manifest.version;
  packuments.set(manifest.name, p);
}

function compareVersions(a, b) {
  const pa = a.split(/[.+-]/).map(Number);
  const pb = b.split(/[.+-]/).map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) if ((pa[i] || 0) !== (pb[i] || 0)) return (pa[i] || 0) - (pb[i] || 0);
  return 0;
}

/**
 * Starts the registry. `tarballs`: [{ file, manifest }] (manifest: the package.json inside the tarball); `cache`:
 * npm's cache folder (`npm config get cache`). Resolves
 * to { url, stop() }; `url` ends in a slash, ready for npm_config_registry.
 */
export async function startLocalRegistry({ lockfile, tarballs, cache }) {
  const packuments = packumentsFromLock(lockfile, cache);
  const tarballs_ = new Map();
  for (const p of packuments.values()) for (const m of Object.values(p.versions)) tarballs_.set(tarballPath(m.name, m.version), cachedPath(cache, m.dist.integrity));
  const files = new Map();
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname).slice(1);
    // `npm ci` on a lockfile without resolved URLs asks this registry for the tarball: the cache's own bytes.
    const locked = tarballs_.get(path);
    const file = files.get(path) ?? (locked && existsSync(locked) ? readFileSync(locked) : undefined);
    if (file) {
      res.writeHead(200, { "content-type": "application/octet-stream", "content-length": file.length });
      return res.end(file);
    }
    const packument = packuments.get(path);
    if (!packument || req.method !== "GET") {
      res.writeHead(404, { "content-type": "application/json" });
      return res.end(JSON.stringify({ error: "not found" }));
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(packument));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${server.address().port}/`;
  for (const { file, manifest } of tarballs) {
    const bytes = readFileSync(file);
    const key = `-/tarballs/${basename(file)}`;
    files.set(key, bytes);
    const integrity = `sha512-${createHash("sha512").update(bytes).digest("base64")}`;
    const m = { name: manifest.name, version: manifest.version };
    for (const f of MANIFEST_FIELDS) if (manifest[f] !== undefined) m[f] = manifest[f];
    add(packuments, { ...m, dist: { tarball: url + key, integrity } });
  }
  return { url, stop: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** The environment for npm commands that install through the registry: cache first, no audit, fund or notices. */
export function registryEnv(url, base = process.env) {
  return {
    ...base,
    npm_config_registry: url,
    npm_config_prefer_offline: "true",
    npm_config_audit: "false",
    npm_config_fund: "false",
    npm_config_update_notifier: "false",
    npm_config_loglevel: "error",
  };
}
