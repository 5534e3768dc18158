import type { Logger } from "pino";
import { findLaunchers, type Launcher } from "./find-launchers.js";
import { isProcessAlive } from "./process-identity.js";

/**
 * Calls `onGone` once when a wrapper this process was started through (`npm start`, tsx's CLI: see
 * findLaunchers) is gone — killed alone, with `kill -9` say. Without this the app outlives it, still
 * answering webhooks and holding DATA_DIR. Polls every `everyMs`; the timer does not keep the process up.
 */
export function watchLaunchers(options: {
  log: Logger;
  onGone: (launcher: Launcher) => void;
  everyMs?: number;
  launchers?: Launcher[];
}): { launchers: Launcher[]; stop(): void } {
  const launchers = options.launchers ?? findLaunchers();
  options.log.debug({ launchers: launchers.map((l) => ({ pid: l.pid, command: l.command })) }, "watching launchers");
  if (launchers.length === 0) return { launchers, stop: () => {} };
  const timer = setInterval(() => {
    const gone = launchers.find((l) => !isProcessAlive(l));
    if (!gone) return;
    clearInterval(timer);
    options.onGone(gone);
  }, options.everyMs ?? 1000);
  timer.unref();
  return { launchers, stop: () => clearInterval(timer) };
}
