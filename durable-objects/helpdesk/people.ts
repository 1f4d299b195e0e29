// Who is who on the help desk: users, the agent the world's key acts as, and which billing customer a requester is.
import type { Store } from "../store/store";
import { nextNumericId } from "./ids";
import { isoSeconds, userDefaults, type StoredUser, type UserRole } from "./shapes";

/** Meta key holding the id of the agent the world's key acts as (GET users/me). */
export const AGENT_META = "helpdesk_agent_id";

export function getUser(store: Store, id: number): StoredUser | null {
  return store.get<StoredUser>("users", String(id));
}

export function userByEmail(store: Store, email: string): StoredUser | null {
  const want = email.trim().toLowerCase();
  const matches = store.list<StoredUser>("users").filter((u) => u.email.toLowerCase() === want);
  return matches.sort((a, b) => Number(a.id) - Number(b.id))[0] ?? null;
}

export function agentId(store: Store): number {
  const id = store.meta(AGENT_META);
  if (!id) throw new Error("help desk: the world has no agent identity (was it seeded?)");
  return Number(id);
}

export function newUserDoc(id: number, name: string, email: string, role: UserRole, createdAt: string): StoredUser {
  // The defaults carry organization_id and tags.
  return { id: String(id), name, email, role, role_type: null, ...userDefaults(), created_at: createdAt, updated_at: createdAt } as unknown as StoredUser;
}

/** Finds the user with this email or creates an end user, as the help desk does for a new requester. */
export function ensureRequester(store: Store, email: string, name: string | undefined): StoredUser {
  const existing = userByEmail(store, email);
  if (existing) return existing;
  const id = nextNumericId(store, "user", "users");
  const user = newUserDoc(id, name ?? nameFromEmail(email), email, "end-user", isoSeconds(store.now()));
  store.insert("users", user, customerForEmail(store, email));
  return user;
}

export function nameFromEmail(email: string): string {
  const local = email.split("@")[0] ?? email;
  return local
    .split(/[._-]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join(" ");
}

/**
 * The billing customer a requester is: the customer whose email equals theirs (case-insensitive), the smallest id
 * when several share it (a billing email can be shared by two accounts), null when none.
 */
export function customerIdForEmail(customers: Array<{ id: string; email?: string | null }>, email: string | null | undefined): string | null {
  if (!email) return null;
  const want = email.trim().toLowerCase();
  const ids = customers.filter((c) => (c.email ?? "").toLowerCase() === want).map((c) => c.id).sort();
  return ids[0] ?? null;
}

export function customerForEmail(store: Store, email: string | null | undefined): string | null {
  return customerIdForEmail(store.list<{ id: string; email?: string | null }>("customers"), email);
}
