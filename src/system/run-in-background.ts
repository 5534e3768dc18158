import { setPriority } from "node:os";

/** The niceness of the app's helper processes (the embedded database, the git launcher and its commands). */
export const BACKGROUND_NICENESS = 10;

/**
 * Lowers a helper process's CPU priority: on a busy machine the thread that answers webhooks is served
 * before review work (database queries, git). Best effort: where the system refuses, nothing changes.
 */
export function runInBackground(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    setPriority(pid, BACKGROUND_NICENESS);
  } catch {
    // not permitted here: the helper keeps the app's priority
  }
}
