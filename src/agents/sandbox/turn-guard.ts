import { createTurnCgroup } from "./turn-cgroup.js";
import type { TurnLimits } from "../../config/env/turn-limits.js";
import { startTurnWatchdog } from "./turn-watchdog.js";

export interface TurnGuard {
  /** The cgroup.procs files the turn's wrapper joins (none when the host offers no cgroup). */
  procsFiles: string[];
  /** The turn's abort signal: the caller's, or the watchdog's when a limit is passed. */
  signal(caller: AbortSignal | undefined): AbortSignal;
  /** Starts watching the turn's outermost process. */
  watch: (pid: number) => void;
  /** After the turn: a last look at the limits. */
  stop(): Promise<void>;
  /** Set when a limit was passed: why the turn was stopped. */
  readonly reason: string | undefined;
  /** Removes the turn's cgroup (killing anything left in it). */
  remove(): Promise<void>;
}

/**
 * A turn's cgroup (when the host offers one and `useCgroup` is not false) and the watchdog that stops
 * the turn past a limit — from the cgroup's counters, or from /proc where there is no cgroup.
 */
export async function startTurnGuard(limits: TurnLimits, writable: string[], useCgroup = true): Promise<TurnGuard> {
  const cgroup = useCgroup ? await createTurnCgroup(limits.maxProcesses, limits.maxMemoryMb * 1024 * 1024) : undefined;
  const stopper = new AbortController();
  const watchdog = await startTurnWatchdog({ limits, cgroup, writable, onBreach: () => stopper.abort() }).catch(
    async (error: unknown) => {
      await cgroup?.remove();
      throw error;
    },
  );
  return {
    procsFiles: cgroup?.procsFiles ?? [],
    signal: (caller) => (caller ? AbortSignal.any([caller, stopper.signal]) : stopper.signal),
    watch: (pid) => watchdog.watch(pid),
    stop: () => watchdog.stop(),
    get reason() {
      return watchdog.reason;
    },
    remove: async () => {
      await watchdog.stop();
      await cgroup?.remove();
    },
  };
}
