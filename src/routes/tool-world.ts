// The world a tool surface request is for, from its key (Bearer, as for the REST twins): the key names its world,
// and the world checks the key's hash, so a key never opens another world. Shared by /mcp and /tools/v1.
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { worldIdFromKey } from "../http/ids";
import { keyHashOf, presentedKey } from "./twin";

export interface ToolWorld {
  stub: ReturnType<AppEnv["Bindings"]["WORLD"]["getByName"]>;
  keyHash: string;
}

/** Null when no key was presented or it cannot be a world key; the world itself decides whether it opens. */
export async function toolWorld(c: Context<AppEnv>): Promise<ToolWorld | null> {
  const key = presentedKey(c.req.header("authorization") ?? null);
  const worldId = key ? worldIdFromKey(key) : null;
  if (!key || !worldId) return null;
  return { stub: c.env.WORLD.getByName(worldId), keyHash: await keyHashOf(key) };
}

export const UNAUTHORIZED_MESSAGE = "This key does not open a world. Send the world's key (WORLDS_TOOLS_KEY, the key returned when the world was created) as a Bearer token.";
