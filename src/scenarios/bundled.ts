// Scenarios bundled into the Worker, served by name (POST /admin/worlds {scenario: "rate-limit-storm"}). Add a
// file under scenarios/ and a line here to serve it.
import rateLimitStorm from "../../scenarios/rate-limit-storm.json";
import slowApi from "../../scenarios/slow-api.json";
import flakyWrites from "../../scenarios/flaky-writes.json";
import staleReads from "../../scenarios/stale-reads.json";

export const BUNDLED_SCENARIOS: Record<string, unknown> = {
  "rate-limit-storm": rateLimitStorm,
  "slow-api": slowApi,
  "flaky-writes": flakyWrites,
  "stale-reads": staleReads,
};
