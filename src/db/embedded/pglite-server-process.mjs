// The embedded database's process: PGlite (WebAssembly PostgreSQL) served over the PostgreSQL wire protocol
// on a unix socket. A child process of its own, not a thread of the app: PGlite's memory (some 120 MB, its
// WebAssembly heap and code) would otherwise belong to the app process, and every fork() the app makes (git,
// the agents) copies the page tables of all of it. Started and stopped by start-embedded-server.ts over the IPC channel:
// { start } down, "ready" | { failed } up, "stop" down, "stopped" up.
//
// Sized for a small install: PostgreSQL's defaults (128 MB of shared buffers, 64 MB for index builds) filled
// PGlite's WebAssembly memory, which never shrinks, on the first migrations; see serverSettings and
// start-embedded-server.ts's Node options. A new data directory is made by initdb in a short-lived process
// of its own (createDataDir): initdb's WebAssembly instance left ~500 MB resident in the process that ran it.
//
// It never outlives the app: when the channel closes (the app exited, even by SIGKILL) it closes PGlite and
// exits. Signals sent to the whole process group (Ctrl-C, a terminal hanging up) are left to the app,
// which stops this process over the channel once its own work has stopped with the database still open.
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { fork } from "node:child_process";
import { existsSync, renameSync, rmdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { oneClientAtATime } from "./one-client-at-a-time.mjs";

/**
 * PostgreSQL settings on top of PGlite's own (`-c` start parameters), for `sharedBuffersMb` of shared buffers
 * (the page cache; the operating system caches the files below it too). maintenance_work_mem (index builds,
 * vacuum) from PostgreSQL's 64 MB to at most the buffers; work_mem (per sort or hash) stays 4 MB.
 * @param {number} sharedBuffersMb
 */
function serverSettings(sharedBuffersMb) {
  return [
    ...PGlite.defaultStartParams,
    ...["-c", `shared_buffers=${sharedBuffersMb}MB`],
    ...["-c", `maintenance_work_mem=${Math.min(64, sharedBuffersMb)}MB`],
  ];
}

// `node pglite-server-process.mjs --initdb <dir> <sharedBuffersMb>`: makes the data directory and exits (see createDataDir).
if (process.argv[2] === "--initdb") {
  process.on("disconnect", () => process.exit(1)); // the database process is gone: so is the draft's use
  const [dir, buffers] = [process.argv[3] ?? "", Number(process.argv[4])];
  const made = new PGlite(dir, { startParams: serverSettings(buffers) });
  await made.waitReady;
  await made.close();
  process.exit(0);
}

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

/**
 * Makes a new data directory `dir` (initdb) in a process of its own, under a draft name renamed into place
 * when done: a start killed meanwhile leaves no half-made directory behind, only a draft the next one replaces.
 * @param {string} dir
 * @param {number} sharedBuffersMb
 */
async function createDataDir(dir, sharedBuffersMb) {
  const draft = `${dir}.initdb`;
  rmSync(draft, { recursive: true, force: true });
  const child = fork(fileURLToPath(import.meta.url), ["--initdb", draft, String(sharedBuffersMb)], {
    execArgv: process.execArgv,
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  const code = await new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (exitCode, signal) => resolve(signal ?? exitCode));
  });
  if (code !== 0) throw new Error(`initdb of ${dir} failed (${code})`);
  if (existsSync(dir)) {
    try {
      rmdirSync(dir); // an empty folder made beforehand (a mount point, say)
    } catch (error) {
      rmSync(draft, { recursive: true, force: true });
      throw /** @type {NodeJS.ErrnoException} */ (error).code === "ENOTEMPTY"
        ? new Error(`${dir} holds files but no database (no PG_VERSION): move it away, or set DATA_DIR elsewhere`)
        : error;
    }
  }
  renameSync(draft, dir);
}

/** @param {{ dataDir?: string; socketPath: string; maxConnections: number; sharedBuffersMb: number }} options */
async function start({ dataDir, socketPath, maxConnections, sharedBuffersMb }) {
  if (dataDir && !existsSync(join(dataDir, "PG_VERSION"))) await createDataDir(dataDir, sharedBuffersMb);
  if (closing) return;
  const options = { startParams: serverSettings(sharedBuffersMb) };
  pglite = dataDir ? new PGlite(dataDir, options) : new PGlite(options);
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
