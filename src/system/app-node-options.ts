/**
 * Node options every start of the app passes on its command line: `npm start`, `npm run start:prod` and
 * the image's CMD (a test holds the three to this list), and the bench, which starts the app as they do.
 * They are for the process that answers webhooks: its worker process gets WORKER_NODE_OPTIONS instead.
 *
 * `--no-parallel-scavenge`: V8 collects the young generation (see below for how often) on the thread
 * that allocates instead of sharing it with helper threads and waiting for them all to finish. On the
 * small machines this app runs on (two cores, kept busy by the reviews' git commands) a helper often
 * waits for a core, and the thread that answers webhooks waited with it in the middle of the pause.
 * Old-generation marking stays concurrent: `--single-threaded-gc`, which also takes that onto the thread,
 * was tried and paused it for up to 114 ms at a time.
 *
 * `--min-semi-space-size=16` (MB): the webhook process allocates a little per delivery and keeps almost
 * none of it, so V8 never grew its young generation past the few MB it starts with and collected it
 * every ~75 deliveries in the bench, half again as often as a bare Probot app (whose young generation
 * had grown while it loaded); each collection is a pause, and each promotes whatever is in flight at
 * that moment to the old generation, which then needs mark-compacts. At 16 MB: every ~140 deliveries.
 * The space is reserved, not committed: memory grows only as it is used.
 *
 * `--no-memory-reducer`: when the allocation rate drops (a quiet spell between bursts of deliveries)
 * V8 starts mark-compacts to shrink the heap; the next burst then met their marking steps and final
 * pause (20–45 ms here). A server's heap of some tens of MB need not shrink while idle.
 *
 * Measured in the ack bench (docs/performance.md). Node refuses all three in NODE_OPTIONS, hence the
 * command lines.
 */
export const APP_NODE_OPTIONS: readonly string[] = [
  "--no-parallel-scavenge",
  "--min-semi-space-size=16",
  "--no-memory-reducer",
];

/**
 * Node options of ROLE=all's worker process in place of APP_NODE_OPTIONS, which are for the process that
 * answers webhooks: the worker answers none, and what they cost it at idle (a 16 MB young generation kept
 * committed, a heap never shrunk) is memory a small machine needs elsewhere.
 *
 * `--optimize-for-size`: V8 keeps its heap small (grows it later, collects more often) and its
 * compilers' code smaller; the reviews' work is git's and the agent's, not this process's JavaScript.
 */
export const WORKER_NODE_OPTIONS: readonly string[] = ["--optimize-for-size"];

/**
 * The worker process's Node options, from this process's own (`process.execArgv`): every one it was
 * started with (loaders and preloads: `--import`, `--require`, …) but APP_NODE_OPTIONS, then WORKER_NODE_OPTIONS.
 */
export function workerExecArgv(execArgv: readonly string[]): string[] {
  return [...execArgv.filter((option) => !APP_NODE_OPTIONS.includes(option)), ...WORKER_NODE_OPTIONS];
}
