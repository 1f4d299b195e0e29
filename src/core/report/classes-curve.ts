// The pass rate of each trap class, in the run's own order, with its 95% Wilson interval as a whisker, as an
// inline SVG string (no script, no fonts; fixed decimals, so the same results give the same bytes). A family's
// tiers are its trap classes, so there this figure is the pass-rate curve across tiers; any run with two classes
// or more gets the same figure.
import type { TrapClassStats } from "../results/types";
import { esc } from "./escape";

const W = 760;
const H = 240;
const PAD = { left: 52, right: 20, top: 18, bottom: 44 };

/** The figure, or "" when fewer than two classes have a measured rate (a single bar says nothing a table row does not). */
export function trapClassSvg(classes: readonly TrapClassStats[]): string {
  const measured = classes.filter((c) => c.accuracy !== null && c.interval !== null);
  if (measured.length < 2) return "";
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const n = measured.length;
  const x = (i: number) => PAD.left + ((i + 0.5) / n) * plotW;
  const y = (v: number) => PAD.top + (1 - v) * plotH;
  const f = (v: number) => v.toFixed(1);
  const pctOf = (v: number) => `${Math.round(v * 1000) / 10}%`;
  const parts: string[] = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" class="classes-curve" role="img" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" aria-labelledby="classes-curve-title">`);
  parts.push(`<title id="classes-curve-title">${esc(`pass rate of ${n} trap classes, in order, with 95% Wilson intervals`)}</title>`);
  for (const v of [0, 0.25, 0.5, 0.75, 1]) {
    parts.push(`<line class="grid" x1="${PAD.left}" x2="${W - PAD.right}" y1="${f(y(v))}" y2="${f(y(v))}"/>`);
    parts.push(`<text class="tick" x="${PAD.left - 8}" y="${f(y(v) + 4)}" text-anchor="end">${v * 100}%</text>`);
  }
  parts.push(`<line class="axis" x1="${PAD.left}" x2="${W - PAD.right}" y1="${f(y(0))}" y2="${f(y(0))}"/>`);
  parts.push(`<polyline class="line" points="${measured.map((c, i) => `${f(x(i))},${f(y(c.accuracy!))}`).join(" ")}"/>`);
  measured.forEach((c, i) => {
    const iv = c.interval!;
    parts.push(`<line class="whisker" data-class="${esc(c.trap_class)}" x1="${f(x(i))}" x2="${f(x(i))}" y1="${f(y(iv.high))}" y2="${f(y(iv.low))}"/>`);
    parts.push(`<line class="whisker-cap" x1="${f(x(i) - 6)}" x2="${f(x(i) + 6)}" y1="${f(y(iv.high))}" y2="${f(y(iv.high))}"/>`);
    parts.push(`<line class="whisker-cap" x1="${f(x(i) - 6)}" x2="${f(x(i) + 6)}" y1="${f(y(iv.low))}" y2="${f(y(iv.low))}"/>`);
    parts.push(
      `<circle class="point" data-class="${esc(c.trap_class)}" cx="${f(x(i))}" cy="${f(y(c.accuracy!))}" r="4"><title>${esc(`${c.trap_class}: ${c.passed} of ${c.trials} passed, ${pctOf(c.accuracy!)} (95% Wilson ${pctOf(iv.low)}-${pctOf(iv.high)})`)}</title></circle>`,
    );
    parts.push(`<text class="value" x="${f(x(i) + 8)}" y="${f(y(c.accuracy!) - 6)}">${pctOf(c.accuracy!)}</text>`);
    parts.push(`<text class="tick" x="${f(x(i))}" y="${H - PAD.bottom + 18}" text-anchor="middle">${esc(c.trap_class)}</text>`);
  });
  parts.push(`<text class="axis-label" x="${PAD.left + plotW / 2}" y="${H - 6}" text-anchor="middle">trap class (a family's tiers, in order)</text>`);
  parts.push(`</svg>`);
  return parts.join("");
}
