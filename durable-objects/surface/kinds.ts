// Which tool catalogue a world offers, by its kind. The kind is fixed at seeding (the seed document's `kind`,
// kept in the world's meta); a world seeded before kinds existed, or by a seed that names none, is an account.
import type { ToolCatalogue } from "./catalogue";
import { accountCatalogue } from "./account/index";
import { toolsCatalogue } from "../tools/catalogue";
import { replayCatalogue } from "../replay/catalogue";
import type { ServiceSender } from "./service-call";

export const WORLD_KINDS = ["account", "tools", "replay"] as const;
export type WorldKind = (typeof WORLD_KINDS)[number];

/** The meta key a world keeps its kind under. */
export const KIND_META = "kind";

export function kindOf(stored: string | null): WorldKind | null {
  if (stored === null || stored === "") return "account";
  return (WORLD_KINDS as readonly string[]).includes(stored) ? (stored as WorldKind) : null;
}

/** The kind a seed document names. Read loosely: the field belongs to the seed schema, which may not carry it yet. */
export function seedKind(seed: unknown): WorldKind {
  const k = (seed as { kind?: unknown } | null)?.kind;
  return typeof k === "string" && (WORLD_KINDS as readonly string[]).includes(k) ? (k as WorldKind) : "account";
}

/** Each kind's own tools; never another kind's. */
export function catalogueFor(kind: WorldKind, send: ServiceSender): ToolCatalogue {
  if (kind === "account") return accountCatalogue(send);
  if (kind === "tools") return toolsCatalogue;
  return replayCatalogue;
}
