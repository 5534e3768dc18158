/**
 * Node options every start of the app passes on its command line: `npm start`, `npm run start:prod` and
 * the image's CMD (a test holds the three to this list), and the bench, which starts the app as they do.
 * The worker process inherits them (`fork` passes this process's options on).
 *
 * `--no-parallel-scavenge`: V8 collects the young generation (every few hundred deliveries) on the thread
 * that allocates instead of sharing it with helper threads and waiting for them all to finish. On the
 * small machines this app runs on (two cores, kept busy by the reviews' git commands) a helper often
 * waits for a core, and the thread that answers webhooks waited with it in the middle of the pause.
 * Old-generation marking stays concurrent: `--single-threaded-gc`, which also takes that onto the thread,
 * was tried and paused it for up to 114 ms at a time. Measured in the ack bench (README, Performance).
 * Node refuses the option in NODE_OPTIONS, hence the command lines.
 */
export const APP_NODE_OPTIONS: readonly string[] = ["--no-parallel-scavenge"];
