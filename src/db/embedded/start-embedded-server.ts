import { chmodSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { Worker } from "node:worker_threads";
import { lockDataDir, type DataDirLock } from "./lock-data-dir.js";

/** The port in the socket's name (`.s.PGSQL.<port>`), as PostgreSQL clients look for it in a socket directory. */
export const EMBEDDED_PORT = 5432;
/** Longest unix socket path the kernel takes (sun_path, less its final NUL). */
const MAX_SOCKET_PATH = 107;
/** The app's pool, the queue's pool and a few one-off connections fit many times over; beyond it the server refuses. */
const MAX_CONNECTIONS = 64;

export interface EmbeddedServer {
  /** The socket's directory: postgres.js takes it as `host`. */
  socketDir: string;
  /** The same as a libpq URL (`?host=<dir>`), as node-postgres (pg-boss) and psql read it. */
  url: string;
  /** Why the database thread stopped on its own, once it has. */
  failure(): Error | undefined;
  /** Stops serving and closes PGlite (its files flushed), then releases the directory. */
  stop(): Promise<void>;
}

/**
 * Starts PGlite in a worker thread, served on a unix socket that only this user can reach: in
 * `<dataDir>-socket/` beside the data (or a private temporary directory when that path is too long for a
 * socket, and for an in-memory database when `dataDir` is undefined). A directory is owned by one process
 * at a time (see lockDataDir).
 */
export async function startEmbeddedServer(dataDir: string | undefined): Promise<EmbeddedServer> {
  const dir = dataDir === undefined ? undefined : resolve(dataDir);
  let lock: DataDirLock | undefined;
  if (dir) {
    mkdirSync(dirname(dir), { recursive: true }); // PGlite creates only the last folder of its data dir
    lock = lockDataDir(dir);
  }
  const socket = socketDirFor(dir);
  const cleanUp = () => {
    if (socket.temporary) rmSync(socket.dir, { recursive: true, force: true });
    lock?.release();
  };
  const socketPath = join(socket.dir, `.s.PGSQL.${EMBEDDED_PORT}`);
  rmSync(socketPath, { force: true }); // left by a process that was killed (we own the directory now)

  const worker = new Worker(new URL("./pglite-server-worker.mjs", import.meta.url), { workerData: { dataDir: dir, socketPath, maxConnections: MAX_CONNECTIONS } });
  let failure: Error | undefined;
  let exited = false;
  const exit = new Promise<void>((resolveExit) =>
    worker.once("exit", (code) => {
      exited = true;
      failure ??= new Error(`the embedded database thread exited (code ${code})`);
      resolveExit();
    }),
  );
  worker.on("error", (error) => (failure ??= error));
  worker.on("message", (message: unknown) => {
    if (typeof message === "object" && message !== null && "failed" in message) failure ??= new Error(`the embedded database failed: ${String(message.failed)}`);
  });
  try {
    await new Promise<void>((ready, fail) => {
      worker.once("error", fail);
      worker.once("exit", (code) => fail(new Error(`the embedded database thread exited while starting (code ${code})`)));
      worker.once("message", (message) => (message === "ready" ? ready() : fail(new Error(`the embedded database did not start: ${JSON.stringify(message)}`))));
    });
  } catch (error) {
    await worker.terminate();
    cleanUp();
    throw error;
  }

  let stopping: Promise<void> | undefined;
  return {
    socketDir: socket.dir,
    url: `postgres://postgres@localhost:${EMBEDDED_PORT}/postgres?host=${encodeURIComponent(socket.dir)}`,
    failure: () => (stopping ? undefined : failure),
    stop() {
      stopping ??= (async () => {
        if (!exited) {
          const stopped = new Promise<void>((done) => worker.on("message", (message) => message === "stopped" && done()));
          worker.postMessage("stop");
          const timeout = new Promise<"timeout">((done) => setTimeout(done, 15_000, "timeout").unref());
          if ((await Promise.race([stopped, exit, timeout])) === "timeout") await worker.terminate();
          await Promise.race([exit, timeout]);
        }
        cleanUp();
      })();
      return stopping;
    },
  };
}

function socketDirFor(dir: string | undefined): { dir: string; temporary: boolean } {
  const beside = dir === undefined ? undefined : `${dir}-socket`;
  if (beside && Buffer.byteLength(join(beside, `.s.PGSQL.${EMBEDDED_PORT}`)) <= MAX_SOCKET_PATH) {
    mkdirSync(beside, { recursive: true, mode: 0o700 });
    chmodSync(beside, 0o700);
    return { dir: beside, temporary: false };
  }
  return { dir: mkdtempSync(join(tmpdir(), "no-mistakes-db-")), temporary: true }; // mode 0700
}
