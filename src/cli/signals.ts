// Ctrl-C and SIGTERM: the first one asks the running command to stop (agents killed, worlds destroyed, the
// local server stopped, then exit 128 + signal); a second one exits at once. Agent process groups are also
// killed synchronously on process exit, so even the fast path leaves no agent behind.
import { constants } from "node:os";

export interface Interrupt {
  /** Aborted on the first SIGINT/SIGTERM. */
  signal: AbortSignal;
  /** The signal received, or null. */
  received(): NodeJS.Signals | null;
  /** 128 + the signal's number, or null when none arrived. */
  exitCode(): number | null;
  /** Removes the handlers (the command is done). */
  dispose(): void;
  /**
   * Miniflare installs SIGINT/SIGTERM listeners that exit the process at once, before our cleanup could run.
   * Call after starting it: every other listener for those signals is removed (its exit hook stays and still
   * kills workerd when the process exits).
   */
  takeOver(): void;
}

const SIGNALS = ["SIGINT", "SIGTERM"] as const;

export function trapSignals(onFirst?: (sig: NodeJS.Signals) => void): Interrupt {
  const controller = new AbortController();
  let got: NodeJS.Signals | null = null;
  const handler = (sig: NodeJS.Signals) => {
    if (got) {
      process.stderr.write(`\nworlds: second ${sig}, exiting now.\n`);
      process.exit(signalExitCode(got));
    }
    got = sig;
    onFirst?.(sig);
    controller.abort(new Error(`interrupted by ${sig}`));
  };
  for (const s of SIGNALS) process.on(s, handler);
  return {
    signal: controller.signal,
    received: () => got,
    exitCode: () => (got ? signalExitCode(got) : null),
    dispose: () => {
      for (const s of SIGNALS) process.removeListener(s, handler);
    },
    takeOver: () => {
      for (const s of SIGNALS) for (const l of process.listeners(s)) if (l !== handler) process.removeListener(s, l as (...a: unknown[]) => void);
    },
  };
}

export function signalExitCode(sig: NodeJS.Signals): number {
  return 128 + (constants.signals[sig] ?? 0);
}
