// What a ticket scenario gets to build its customer's history: the ledger, the clock helpers, and shortcuts for
// the common shapes (a monthly plan renewed N days ago, a yearly plan bought N days ago).
import { addInterval, daysAgo, DAY, HOUR } from "../time.mjs";

export function makeContext(L, state) {
  const ctx = {
    L,
    state,
    daysAgo,
    /** A customer of the cast; created defaults to shortly before their first subscription. */
    customer({ key, name, email, createdDaysAgo, phone = null, description = null, metadata }) {
      return L.customer({ key: `cast:${key}`, name, email, created: createdDaysAgo !== undefined ? daysAgo(createdDaysAgo, 8) : undefined, phone, description, metadata });
    },
    /** Cast members several tickets share (a company group, an agency and its client) are built once. */
    once(name, build) {
      if (!(name in state)) state[name] = build();
      return state[name];
    },
    /**
     * A monthly subscription whose latest renewal was `lastDaysAgo` days ago, after `months` paid periods.
     * Extra options go straight to Ledger.subscribe.
     */
    monthly(cus, { plan, lastDaysAgo, months, hour = 10, ...rest }) {
      const last = daysAgo(lastDaysAgo, hour);
      const start = addInterval(last, "month", -(months - 1));
      ensureCreated(cus, start);
      const r = L.subscribe(cus, { plan, interval: "month", start, anchorDay: new Date(last * 1000).getUTCDate(), ...rest });
      const paid = r.periods.filter((p) => !p.trial);
      if (rest.cancelAt === undefined && paid[paid.length - 1].start !== last) throw new Error(`${cus.name}: renewal lands on ${paid[paid.length - 1].start}, not ${last}`);
      return r;
    },
    /** A yearly subscription bought `startDaysAgo` days ago (renewed each anniversary). */
    yearly(cus, { plan, startDaysAgo, hour = 10, ...rest }) {
      const start = daysAgo(startDaysAgo, hour);
      ensureCreated(cus, start);
      return L.subscribe(cus, { plan, interval: "year", start, ...rest });
    },
    ensureCreated,
  };
  return ctx;
}

/** A customer exists a little before anything is billed to them. */
export function ensureCreated(cus, firstEvent) {
  if (cus.created === undefined || cus.created > firstEvent) cus.created = firstEvent - 2 * DAY - 3 * HOUR;
}
