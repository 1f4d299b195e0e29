// Lookups over the resource list: by `object` name (shaping, expansion), by id prefix (expanding an id).
import type { Resource } from "./types";

export class Registry {
  private readonly byObject = new Map<string, Resource>();
  private readonly byPrefix = new Map<string, Resource>();

  constructor(readonly resources: Resource[]) {
    for (const r of resources) {
      this.byObject.set(r.object, r);
      this.byPrefix.set(r.prefix, r);
    }
  }

  forObject(object: unknown): Resource | undefined {
    return typeof object === "string" ? this.byObject.get(object) : undefined;
  }

  /** The resource an id belongs to, from its prefix (cus_..., price_..., cbtxn_...); an id with no known prefix
   *  belongs to the resource declaring the empty prefix (coupons, whose ids the caller chooses), if any. */
  forId(id: string): Resource | undefined {
    const i = id.indexOf("_");
    return (i > 0 ? this.byPrefix.get(id.slice(0, i)) : undefined) ?? this.byPrefix.get("");
  }
}
