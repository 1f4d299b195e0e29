#!/usr/bin/env node
// The crashing reference agent: reads its work, makes one billing call, then dies with exit code 3 before
// answering. `worlds selftest` expects the exit to be recorded on every episode and no run to pass.
import { billing, workload } from "./lib/world.mjs";

const stripe = billing();
const { tickets } = await workload();
await stripe.customers.list({ email: tickets[0]?.requester.email ?? "nobody@example.com", limit: 1 });
process.stderr.write("crash.mjs: failing on purpose\n");
process.exit(3);
