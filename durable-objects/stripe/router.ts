// Matches a request path against the resources' route patterns. A literal segment beats a parameter, so
// /v1/customers/search is the search route and never "retrieve customer 'search'".
import type { Route } from "./types";

interface Compiled {
  route: Route;
  segments: string[];
  literals: number;
}

export interface Match {
  route: Route;
  pathParams: Record<string, string>;
}

export class Router {
  private readonly compiled: Compiled[];

  constructor(routes: Route[]) {
    this.compiled = routes.map((route) => {
      const segments = route.path.split("/").filter(Boolean);
      return { route, segments, literals: segments.filter((s) => !s.startsWith(":")).length };
    });
  }

  match(method: string, path: string): Match | null {
    const parts = path.split("/").filter(Boolean);
    let best: { c: Compiled; params: Record<string, string> } | null = null;
    for (const c of this.compiled) {
      if (c.route.method !== method || c.segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < parts.length && ok; i++) {
        const seg = c.segments[i];
        if (seg.startsWith(":")) {
          let v: string;
          try {
            v = decodeURIComponent(parts[i]);
          } catch {
            v = parts[i];
          }
          params[seg.slice(1)] = v;
        } else ok = seg === parts[i];
      }
      if (ok && (!best || c.literals > best.c.literals)) best = { c, params };
    }
    return best ? { route: best.c.route, pathParams: best.params } : null;
  }
}
