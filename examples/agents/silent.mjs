#!/usr/bin/env node
// The silent reference agent: reads nothing, changes nothing, says nothing, exits 0. `worlds selftest`
// expects every keyed task to be missed, and passk to call the run inconclusive (no traffic at all).
process.stdin.resume();
process.stdin.on("end", () => process.exit(0));
process.stdin.on("error", () => process.exit(0));
