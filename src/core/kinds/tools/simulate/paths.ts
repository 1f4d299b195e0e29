// Answer paths as tasks name them: `id`, `order.id`, `orders[].order_id` (the field in every item of a list).
export function setAtPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split(".");
  let cur: Record<string, unknown>[] = [target];
  for (let i = 0; i < parts.length; i++) {
    const list = parts[i].endsWith("[]");
    const key = list ? parts[i].slice(0, -2) : parts[i];
    const last = i === parts.length - 1;
    const next: Record<string, unknown>[] = [];
    for (const obj of cur) {
      if (last && !list) {
        obj[key] = value;
        continue;
      }
      if (list) {
        let arr = obj[key];
        if (!Array.isArray(arr) || arr.length === 0) arr = obj[key] = [{}];
        for (let j = 0; j < (arr as unknown[]).length; j++) {
          if (last) (arr as unknown[])[j] = value;
          else {
            const item = (arr as unknown[])[j];
            if (typeof item !== "object" || item === null || Array.isArray(item)) (arr as unknown[])[j] = {};
            next.push((arr as unknown[])[j] as Record<string, unknown>);
          }
        }
      } else {
        const child = obj[key];
        if (typeof child !== "object" || child === null || Array.isArray(child)) obj[key] = {};
        next.push(obj[key] as Record<string, unknown>);
      }
    }
    cur = next;
  }
}

/** Every value at a path (a list path gives one per item). */
export function valuesAtPath(source: unknown, path: string): unknown[] {
  let cur: unknown[] = [source];
  for (const part of path.split(".")) {
    const list = part.endsWith("[]");
    const key = list ? part.slice(0, -2) : part;
    const next: unknown[] = [];
    for (const v of cur) {
      if (typeof v !== "object" || v === null || Array.isArray(v)) continue;
      const child = (v as Record<string, unknown>)[key];
      if (list) {
        if (Array.isArray(child)) next.push(...child);
      } else if (child !== undefined) next.push(child);
    }
    cur = next;
  }
  return cur;
}
