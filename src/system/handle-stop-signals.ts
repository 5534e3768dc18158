import type { Logger } from "pino";

/** Copies of one stop signal arrive within this long of the first; a later signal is the person's second. */
export const DUPLICATE_SIGNAL_WINDOW_MS = 1500;

export interface StopSignals {
  /** Starts the graceful stop for a reason other than a signal (the launcher gone); ignored once stopping. */
  stop(reason: Record<string, unknown>): void;
}

export interface StopSignalOptions {
  log: Logger;
  /** The graceful stop: running turns get the grace period. */
  stopGracefully: () => void;
  /** A second signal: stop now. */
  stopAtOnce: () => void;
  /** Logged with the graceful stop (the grace period, say). */
  fields?: Record<string, unknown>;
  windowMs?: number;
  now?: () => number;
  /** Where signals come from (the process; a test's emitter). */
  source?: Pick<NodeJS.EventEmitter, "on">;
}

/**
 * SIGINT and SIGTERM start one graceful stop, a second one later stops at once. One Ctrl-C or
 * `kill -- -PGID` reaches every process of the group: the app gets its own copy and, within some tens of
 * ms, the copies `npm start` and tsx's CLI forward to it. Signals within `windowMs` of the first are those
 * copies and count once; a signal after that is the person's (or supervisor's) second.
 */
export function handleStopSignals(options: StopSignalOptions): StopSignals {
  const { log, windowMs = DUPLICATE_SIGNAL_WINDOW_MS, now = Date.now, source = process } = options;
  let stoppingSince: number | undefined;
  const stop = (reason: Record<string, unknown>): boolean => {
    if (stoppingSince !== undefined) return false;
    stoppingSince = now();
    log.info(
      { ...reason, ...options.fields },
      "stopping: running turns get the grace period, webhooks are still answered meanwhile",
    );
    options.stopGracefully();
    return true;
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    source.on(signal, () => {
      if (stoppingSince === undefined) {
        stop({ signal });
        return;
      }
      const sinceMs = now() - stoppingSince;
      if (sinceMs < windowMs) {
        log.debug({ signal, sinceMs }, "duplicate stop signal ignored (a copy of the first, forwarded by a wrapper)");
        return;
      }
      // Jobs still running are handed back by the next process to look.
      log.warn({ signal, sinceMs }, "stopping at once");
      options.stopAtOnce();
    });
  }
  return { stop: (reason) => void stop(reason) };
}
