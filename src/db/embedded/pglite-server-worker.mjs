// The embedded database's thread: PGlite (WebAssembly PostgreSQL) served over the PostgreSQL wire protocol
// on a unix socket, so its statements run here and never on the app's event loop. Started and stopped by
// start-embedded-server.ts; messages: "ready" | { failed } up, "stop" down, "stopped" up.
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { oneClientAtATime } from "./one-client-at-a-time.mjs";

/** @type {{ dataDir?: string; socketPath: string; maxConnections: number }} */
const { dataDir, socketPath, maxConnections } = workerData;
const port = /** @type {import("node:worker_threads").MessagePort} */ (parentPort);

const pglite = dataDir ? new PGlite(dataDir) : new PGlite();
await pglite.waitReady;
const server = new PGLiteSocketServer({
  db: oneClientAtATime(pglite, (error) => {
    port.postMessage({ failed: error instanceof Error ? error.stack ?? error.message : String(error) });
    void server.stop();
  }),
  path: socketPath,
  maxConnections,
});
await server.start();
port.postMessage("ready");

port.on("message", async (message) => {
  if (message !== "stop") return;
  await server.stop();
  // Connections the server dropped roll back their open transactions first (next turns of the loop).
  await new Promise((resolve) => setTimeout(resolve, 50));
  if (!pglite.closed) await pglite.close();
  port.postMessage("stopped");
  port.close();
});
