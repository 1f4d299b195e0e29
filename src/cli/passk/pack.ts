// Which starter pack a tasks file is, for the results' `tasks.pack`: a file under the package's packs/, or a
// byte-for-byte copy of one (`cp packs/refunds.yaml worlds/`), is that pack; an edited copy is the user's own file.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { packageRoot } from "../paths";

export function packName(file: string, fileSha256: string, packsDir: string = join(packageRoot(), "packs")): string | null {
  if (!existsSync(packsDir)) return null;
  const packs = readdirSync(packsDir).filter((f) => f.endsWith(".yaml"));
  const real = (p: string) => (existsSync(p) ? realpathSync(p) : resolve(p));
  const path = real(file);
  if (dirname(path) === real(packsDir) && packs.includes(basename(path))) return basename(path, ".yaml");
  for (const f of packs) {
    if (createHash("sha256").update(readFileSync(join(packsDir, f))).digest("hex") === fileSha256) return basename(f, ".yaml");
  }
  return null;
}
