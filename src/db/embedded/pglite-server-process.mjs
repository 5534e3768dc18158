// The embedded database's process: PGlite (WebAssembly PostgreSQL) served over the PostgreSQL wire protocol
// on a unix socket. A child process of its own, not a thread of the app: PGlite's memory (hundreds of MB)
// would otherwise belong to the app process, and every fork() the app makes (git, the agents) copies the
// page tables of all of it. Started and stopped by start-embedded-server.ts over the IPC channel:
// { start } down, "ready" | { failed } up, "stop" down, "stopped" up.
//
// It never outlives the app: when the channel closes (the app exited, even by SIGKILL) it closes PGlite and
// exits. Signals sent to the whole process group (Ctrl-C, a terminal hanging up) are left to the app,
// which stops this process over the channel once its own work has stopped with the database still open.
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { oneClientAtATime } from "./one-client-at-a-time.mjs";

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => {});
process.stderr.on("error", () => {}); // the app's stderr may be gone while this process closes

/** @type {PGlite | undefined} */
let pglite;
/** @type {PGLiteSocketServer | undefined} */
let server;
/** @type {Promise<void> | undefined} */
let closing;

/** Stops serving and closes PGlite (its files flushed); once. */
function close() {
  closing ??= (async () => {
    await server?.stop();
    // Connections the server dropped roll back their open transactions first (next turns of the loop).
    await new Promise((resolve) => setTimeout(resolve, 50));
    if (pglite && !pglite.closed) await pglite.close();
  })();
  return closing;
}

/** @param {unknown} message */
function send(message) {
  if (process.connected) process.send?.(message);
}

/** @param {{ dataDir?: string; socketPath: string; maxConnections: number }} options */
async function start({ dataDir, socketPath, maxConnections }) {
  pglite = dataDir ? new PGlite(dataDir) : new PGlite();
  await pglite.waitReady;
  if (closing) return; // the app went away meanwhile
  server = new PGLiteSocketServer({
    db: oneClientAtATime(pglite, (error) => {
      send({ failed: error instanceof Error ? (error.stack ?? error.message) : String(error) });
      void server?.stop();
    }),
    path: socketPath,
    maxConnections,
  });
  await server.start();
  send("ready");
}

/** @type {Promise<void> | undefined} */
let started;

process.on("message", (/** @type {any} */ message) => {
  if (typeof message === "object" && message !== null && "start" in message && !started) {
    started = start(message.start).catch((error) => {
      send({ failed: error instanceof Error ? (error.stack ?? error.message) : String(error) });
      return close().finally(() => process.exit(1));
    });
  } else if (message === "stop") {
    void (async () => {
      await started?.catch(() => {});
      await close();
      send("stopped");
      process.disconnect();
      process.exit(0);
    })();
  }
});

// The app is gone (it exited or was killed): nobody to serve. Close the files cleanly and leave.
process.on("disconnect", () => {
  void (async () => {
    await started?.catch(() => {});
    await close();
    process.exit(0);
  })();
});
