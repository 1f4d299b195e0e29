// The suite's pass^k curve (k = 1..K) with its interval band, as an inline SVG string (no script, no fonts).
import type { PassHatBand } from "../results/types";
import { esc } from "./escape";

const W = 760;
const H = 260;
const PAD = { left: 52, right: 20, top: 18, bottom: 44 };

export function passHatSvg(curve: readonly PassHatBand[], tasks: number): string {
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const K = curve.length;
  const x = (k: number) => PAD.left + (K <= 1 ? plotW / 2 : ((k - 1) / (K - 1)) * plotW);
  const y = (v: number) => PAD.top + (1 - v) * plotH;
  const f = (n: number) => n.toFixed(1);
  const parts: string[] = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" class="curve" role="img" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" aria-labelledby="curve-title">`);
  parts.push(`<title id="curve-title">${esc(K > 0 ? `pass^k for k = 1 to ${K} over ${tasks} keyed tasks, with 95% interval band` : "no pass^k: no keyed task ran")}</title>`);
  for (const v of [0, 0.25, 0.5, 0.75, 1]) {
    parts.push(`<line class="grid" x1="${PAD.left}" x2="${W - PAD.right}" y1="${f(y(v))}" y2="${f(y(v))}"/>`);
    parts.push(`<text class="tick" x="${PAD.left - 8}" y="${f(y(v) + 4)}" text-anchor="end">${v * 100}%</text>`);
  }
  parts.push(`<line class="axis" x1="${PAD.left}" x2="${W - PAD.right}" y1="${f(y(0))}" y2="${f(y(0))}"/>`);
  if (K === 0) {
    parts.push(`<text class="empty" x="${W / 2}" y="${H / 2}" text-anchor="middle">no keyed task ran</text>`);
  } else {
    if (K > 1) {
      const upper = curve.map((p) => `${f(x(p.k))},${f(y(p.high))}`);
      const lower = [...curve].reverse().map((p) => `${f(x(p.k))},${f(y(p.low))}`);
      parts.push(`<polygon class="band" points="${[...upper, ...lower].join(" ")}"/>`);
      parts.push(`<polyline class="line" points="${curve.map((p) => `${f(x(p.k))},${f(y(p.value))}`).join(" ")}"/>`);
    }
    for (const p of curve) {
      // Whiskers as well as the band, so a one-point curve (K = 1) still shows its interval.
      parts.push(`<line class="whisker" x1="${f(x(p.k))}" x2="${f(x(p.k))}" y1="${f(y(p.high))}" y2="${f(y(p.low))}"/>`);
      parts.push(
        `<circle class="point" cx="${f(x(p.k))}" cy="${f(y(p.value))}" r="4"><title>${esc(`pass^${p.k} = ${Math.round(p.value * 100)}% (95% interval ${Math.round(p.low * 100)}–${Math.round(p.high * 100)}%)`)}</title></circle>`,
      );
      parts.push(`<text class="value" x="${f(x(p.k))}" y="${f(y(p.value) - 9)}" text-anchor="middle">${Math.round(p.value * 100)}%</text>`);
      parts.push(`<text class="tick" x="${f(x(p.k))}" y="${H - PAD.bottom + 18}" text-anchor="middle">${p.k}</text>`);
    }
  }
  parts.push(`<text class="axis-label" x="${PAD.left + plotW / 2}" y="${H - 6}" text-anchor="middle">k (runs that must all succeed)</text>`);
  parts.push(`</svg>`);
  return parts.join("");
}
