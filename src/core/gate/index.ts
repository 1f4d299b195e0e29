export { parseGates, GateSyntaxError, GATE_HELP, type Gate } from "./parse";
export { evaluateGates, type GateResult, type GateOutcome } from "./evaluate";
export { applyVerdicts, type Verdicts } from "./apply";
