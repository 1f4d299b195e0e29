export { wilson, Z_95, type Interval } from "./wilson";
export { passHatK, passHatCurve, suitePassHat, type TaskTrials } from "./passk";
export { isFlaky, pickWorst, type WorstCandidate } from "./select";
