export { wilson, Z_95, type Interval } from "./wilson";
export { passHatK, passHatCurve, suitePassHat, type TaskTrials } from "./passk";
export { isFlaky, pickWorst, type WorstCandidate } from "./select";
export { boschlooWorse, fisherWorse, stratifiedExact, type Count, type StratifiedTest } from "./exact";
export { adjustPValues, CORRECTIONS, type Correction } from "./adjust";
export { BOOTSTRAP_KEY, BOOTSTRAP_RESAMPLES, drawTasks, percentileInterval, resampled, type Draws } from "./bootstrap";
export { decideAgainst, runsToDecide, suitePassHatInterval, MAX_PROJECTED_RUNS, type ClusterInterval, type Comparator } from "./cluster";
export { keyedRng, type Rng } from "./rng";
