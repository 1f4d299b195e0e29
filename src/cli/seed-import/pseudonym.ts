// Pseudonyms for an imported account's customers: a keyed hash (HMAC-SHA256) of each real id, email and name
// under a salt derived from the account, so the same account always gets the same pseudonyms (a re-import, the
// identity map and a tasks file written last month agree) while nothing in the seed leads back to a person
// without the salt. Emails are hashed on their own, so accounts sharing a billing address still share one.
import { createHash, createHmac } from "node:crypto";

const FIRST = [
  "Avery", "Blake", "Casey", "Dana", "Eden", "Finley", "Gray", "Harper", "Indigo", "Jordan", "Kai", "Logan", "Morgan", "Noel", "Oakley", "Parker",
  "Quinn", "Reese", "Sage", "Taylor", "Umber", "Vale", "Wren", "Xen", "Yael", "Zion", "Ash", "Bay", "Cameron", "Drew", "Ellis", "Frankie",
  "Gale", "Hollis", "Ira", "Jesse", "Kendall", "Lane", "Marlowe", "Nico", "Onyx", "Peyton", "Remy", "Skyler", "Tatum", "Uri", "Val", "Winter",
  "Arden", "Briar", "Cypress", "Dallas", "Emery", "Florian", "Greer", "Hayden", "Jules", "Kit", "Lennon", "Milan", "Nova", "Ocean", "Phoenix", "Rowan",
];
const LAST = [
  "Reyes", "Okafor", "Lindqvist", "Moreau", "Tanaka", "Castillo", "Novak", "Haddad", "Kowalski", "Mbeki", "Silva", "Fischer", "Iyer", "Larsen", "Duarte", "Nakamura",
  "Osei", "Petrov", "Quist", "Romano", "Sato", "Torres", "Udeh", "Varga", "Weiss", "Xu", "Yilmaz", "Zamora", "Abbott", "Brennan", "Cho", "Delgado",
  "Ekwueme", "Farrow", "Grant", "Hale", "Ivers", "Jensen", "Kaur", "Lopez", "Marsh", "Nolan", "Ortiz", "Park", "Quinlan", "Rivera", "Stone", "Tran",
  "Underwood", "Vance", "Walsh", "Young", "Zhou", "Acosta", "Bishop", "Calloway", "Dorsey", "Ellison", "Fontaine", "Garza", "Holt", "Ibarra", "Juarez", "Keane",
];
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Where the salt came from, said in the manifest without saying the salt. */
export type SaltSource = "account" | "phrase";

/**
 * The salt: SHA-256 over a fixed label and the account id (GET /v1/account), or over a phrase the user gives
 * with --salt when the key cannot read the account. Either way it never leaves this process.
 */
export function deriveSalt(source: SaltSource, value: string): Buffer {
  return createHash("sha256").update(`worlds seed import v1\0${source}\0${value}`).digest();
}

export interface Pseudonym {
  id: string;
  email: string | null;
  name: string | null;
}

export class Pseudonymizer {
  constructor(private readonly salt: Buffer) {}

  private digest(kind: string, value: string): Buffer {
    return createHmac("sha256", this.salt).update(`${kind}\0${value}`).digest();
  }

  customerId(realId: string): string {
    const d = this.digest("id", realId);
    let s = "";
    for (let i = 0; i < 11; i++) s += BASE62[d[i] % 62];
    return `cus_imp${s}`;
  }

  /** Case-insensitive, as email addresses are compared everywhere in worlds. */
  email(real: string): string {
    const d = this.digest("email", real.trim().toLowerCase());
    return `${FIRST[d[0] % FIRST.length].toLowerCase()}.${LAST[d[1] % LAST.length].toLowerCase()}.${d.subarray(2, 5).toString("hex")}@example.com`;
  }

  name(real: string): string {
    const d = this.digest("name", real.trim());
    return `${FIRST[d[0] % FIRST.length]} ${LAST[d[1] % LAST.length]}`;
  }

  customer(c: { id: string; email: string | null; name: string | null }): Pseudonym {
    return { id: this.customerId(c.id), email: c.email ? this.email(c.email) : null, name: c.name ? this.name(c.name) : null };
  }
}
