// `worlds tools card`: reads a tools run's folder (the newest on the settings' tool file unless --run names one)
// and writes its card beside the run, card/card.md and card/card.html, the episodes of the arm where the agent
// broke most included. --compare OTHER writes card/compare.md and card/compare.html with both cards, each whole,
// only when the tool file, the settings and the seed match; otherwise it prints the one line that says what
// differs and writes nothing. The card names the run by its folder's name, so the same folder gives the same bytes
// from wherever it is read.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { buildCard, compareVerdict } from "../../core/kinds/tools/card/model";
import { cardHtml, cardMarkdown, compareHtml, compareMarkdown } from "../../core/kinds/tools/card/render";
import { newestRunOn, readRunFolder, RunFolderError } from "./folder";
import { readConfig } from "./load";

function cardOf(folder: string) {
  const { record, episodes } = readRunFolder(folder);
  return { record, card: buildCard(basename(resolve(folder)), record, episodes) };
}

function write(dir: string, files: Record<string, string>): string[] {
  try {
    mkdirSync(dir, { recursive: true });
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  } catch (e) {
    throw new RunFolderError(`${dir}: cannot write the card there (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  return Object.keys(files).map((name) => join(dir, name));
}

export function toolsCard(o: { config: string; run?: string; compare?: string }, out: (s: string) => void): number {
  // The spec's `--compare published` has nothing to read here: no card is published on a team's own tools, and the
  // card already says in its run section that the published ones are about other tasks.
  if (o.compare === "published" && !existsSync(o.compare))
    throw new RunFolderError("--compare takes another run's folder: no card is published on your tools, and the card already says none of its figures reads against the published ones (different tasks)");
  let folder = o.run;
  if (folder === undefined) {
    const config = readConfig(o.config);
    // Beside --compare's folder, the newest other run: a copy made a moment ago must not be compared with itself.
    const newest = newestRunOn(o.config, config.file, o.compare);
    if (!newest) throw new RunFolderError(`no tools run on ${relative(process.cwd(), resolve(dirname(o.config), config.file)) || config.file} under ${join(dirname(o.config), "runs")} yet: 'worlds tools run' makes one (or name a run's folder with --run)`);
    folder = newest.path;
  }
  const a = cardOf(folder);
  const dir = join(folder, "card");
  if (o.compare !== undefined) {
    const b = cardOf(o.compare);
    const verdict = compareVerdict(a.record, b.record);
    if (verdict) return out(`${verdict}\n`), 0;
    const [md, html] = write(dir, { "compare.md": compareMarkdown(a.card, b.card), "compare.html": compareHtml(a.card, b.card) });
    out(`same tool file, settings and seeds: ${a.card.run.name} and ${b.card.run.name} stand side by side in ${md} and ${html}, each whole, nothing pooled\n`);
    return 0;
  }
  const md = cardMarkdown(a.card);
  const [mdPath, htmlPath] = write(dir, { "card.md": md, "card.html": cardHtml(a.card) });
  // The screen gets the card up to its episodes; the files hold them too.
  out(cardMarkdown(a.card, { episodes: false }));
  out(`\nwrote ${mdPath} and ${htmlPath}${a.card.worst ? ` (with every episode of ${a.card.worst.arm}, where it broke most)` : ""}\n`);
  return 0;
}
