// Whether the server can run a person's model (its key and base URL are the server's): checked when a world with
// a person is created, so a missing key is a 400 at creation rather than a failure at the agent's first message.
import type { Env } from "../../env";
import { serverModel } from "../../hosted/models/server-client";

/** Null when it can; otherwise what to do about it. */
export function checkPersonModel(env: Env, modelText: string): string | null {
  const m = serverModel(env, modelText, { cache: false });
  return m.ok ? null : `person.model: ${m.message}`;
}
