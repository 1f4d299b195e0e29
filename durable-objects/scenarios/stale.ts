// Stale lists: the world as it stood before a write, seen through a read. The write's changes are undone inside
// a transaction, the read runs on that state, and the transaction is rolled back, so the world itself never
// moves and the diff never sees it.
import type { Service, Transact, TwinResponse } from "../twin";

const ROLLBACK = Symbol("scenario rollback");

/** Undoes one request's changes, newest first, on the objects table. */
function revertRequest(sql: SqlStorage, requestId: string): void {
  const rows = sql
    .exec<{ type: string; id: string; before: string | null; after: string | null }>("SELECT type, id, before, after FROM changes WHERE request_id = ? ORDER BY seq DESC", requestId)
    .toArray();
  for (const r of rows) {
    if (r.before === null) sql.exec("DELETE FROM objects WHERE type = ? AND id = ?", r.type, r.id);
    else sql.exec("UPDATE objects SET deleted = 0, data = ? WHERE type = ? AND id = ?", r.before, r.type, r.id);
  }
}

/** Runs `read` on the world as it was before `requestId`'s writes; nothing it sees or does is kept. */
export function readBefore(sql: SqlStorage, transact: Transact, requestId: string, read: () => TwinResponse): TwinResponse {
  let captured: TwinResponse | null = null;
  try {
    transact(() => {
      revertRequest(sql, requestId);
      captured = read();
      throw ROLLBACK;
    });
  } catch (e) {
    if (e !== ROLLBACK) throw e;
  }
  return captured!;
}

/** Whether the request wrote anything (a write whose changes a later list may lag behind). */
export function wroteSomething(sql: SqlStorage, requestId: string): boolean {
  return sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM changes WHERE request_id = ?", requestId).one().n > 0;
}

/** A list page in the service's shape: the billing API's list and search objects, the help desk's paged bodies. */
export function isListResponse(service: Service, res: TwinResponse): boolean {
  if (res.status !== 200) return false;
  let body: unknown;
  try {
    body = JSON.parse(res.body);
  } catch {
    return false;
  }
  if (!body || typeof body !== "object" || Array.isArray(body)) return false;
  const o = body as Record<string, unknown>;
  if (service === "stripe") return o.object === "list" || o.object === "search_result";
  return "next_page" in o || ("links" in o && "meta" in o);
}
