// What discounts take off an invoice: each discount in order over the discountable lines (a percentage of each
// line, or a fixed amount spread over the lines in proportion and never more than what is left), recorded
// per line as discount_amounts and on the invoice as total_discount_amounts; total is the subtotal less them.
import type { Store, StoredObject } from "../../../store/store";
import { couponIdOf } from "../discounts";

export interface DiscountedLines {
  lines: StoredObject[];
  subtotal: number;
  total: number;
  discounts: string[];
  totalDiscountAmounts: Array<{ amount: number; discount: string }>;
}

function productOf(line: StoredObject): string | null {
  const pricing = line.pricing as { price_details?: { product?: string } } | null;
  return pricing?.price_details?.product ?? null;
}

export function applyDiscounts(store: Store, lines: StoredObject[], discounts: StoredObject[]): DiscountedLines {
  const subtotal = lines.reduce((s, l) => s + Number(l.amount), 0);
  const left = new Map(lines.map((l) => [l.id, Math.max(0, Number(l.amount))]));
  const perLine = new Map<string, Array<{ amount: number; discount: string }>>(lines.map((l) => [l.id, []]));
  const totals: Array<{ amount: number; discount: string }> = [];
  for (const d of discounts) {
    const coupon = store.get("coupons", couponIdOf(d), { includeDeleted: true });
    if (!coupon) continue;
    const only = (coupon.applies_to as { products: string[] } | undefined)?.products;
    const eligible = lines.filter((l) => l.discountable === true && (left.get(l.id) ?? 0) > 0 && (!only || only.includes(productOf(l) ?? "")));
    const base = eligible.reduce((s, l) => s + (left.get(l.id) ?? 0), 0);
    if (!base) continue;
    const wanted = coupon.percent_off !== null ? Math.round((base * Number(coupon.percent_off)) / 100) : Math.min(base, Number(coupon.amount_off));
    let given = 0;
    eligible.forEach((l, i) => {
      const room = left.get(l.id) ?? 0;
      // The last line takes the rounding remainder, so the parts always add up to the invoice's figure.
      const share = i === eligible.length - 1 ? wanted - given : Math.min(room, Math.round((wanted * room) / base));
      given += share;
      left.set(l.id, room - share);
      perLine.get(l.id)!.push({ amount: share, discount: d.id });
    });
    totals.push({ amount: wanted, discount: d.id });
  }
  const off = totals.reduce((s, t) => s + t.amount, 0);
  return {
    lines: lines.map((l) => ({ ...l, discount_amounts: perLine.get(l.id) ?? [] })),
    subtotal,
    total: subtotal - off,
    discounts: totals.map((t) => t.discount),
    totalDiscountAmounts: totals,
  };
}

/** An invoice document with the discounted figures in place of the undiscounted ones it was built with. */
export function withDiscountFigures<T extends StoredObject>(doc: T, d: DiscountedLines): T {
  const lines = doc.lines as { data: StoredObject[] };
  return {
    ...doc,
    discounts: d.discounts,
    lines: { ...lines, data: d.lines },
    subtotal: d.subtotal,
    subtotal_excluding_tax: d.subtotal,
    total: d.total,
    total_discount_amounts: d.totalDiscountAmounts,
    total_excluding_tax: d.total,
  };
}
