/**
 * Node options every start of the app passes on its command line: `npm start`, `npm run start:prod` and
 * the image's CMD (a test holds the three to this list), and the bench, which starts the app as they do.
 * The worker process inherits them (`fork` passes this process's options on).
 *
 * `--single-threaded-gc`: V8 collects garbage on the thread that allocates instead of sharing the work
 * with helper threads and waiting for them to finish. On the small machines this app runs on (two
 * cores, kept busy by the reviews' git commands) a helper often waits for a core, and the thread that
 * answers webhooks waited with it in the middle of a collection; without helpers the collection is
 * the thread's own work. Measured in the ack bench (README, Performance). It cannot be set once the
 * process runs (`v8.setFlagsFromString` aborts at the next collection) and Node refuses it in
 * NODE_OPTIONS: hence the command lines.
 */
export const APP_NODE_OPTIONS: readonly string[] = ["--single-threaded-gc"];
