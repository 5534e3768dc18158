import { chmodSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { lockDataDir, type DataDirLock } from "./lock-data-dir.js";
import { runInBackground } from "../../system/run-in-background.js";

/** The port in the socket's name (`.s.PGSQL.<port>`), as PostgreSQL clients look for it in a socket directory. */
export const EMBEDDED_PORT = 5432;
/** Longest unix socket path the kernel takes (sun_path, less its final NUL). */
const MAX_SOCKET_PATH = 107;
/** The app's pool, the queue's pool and a few one-off connections fit many times over; beyond it the server refuses. */
const MAX_CONNECTIONS = 64;
/** PostgreSQL's shared buffers in the embedded database unless EMBEDDED_DB_BUFFERS_MB says otherwise. */
export const DEFAULT_EMBEDDED_BUFFERS_MB = 8;

/**
 * Node options of the database process. `--liftoff-only`: PostgreSQL's WebAssembly stays compiled by V8's
 * baseline compiler, not recompiled by the optimizing one as it gets hot — that second copy of the hot
 * code was ~40 MiB resident, and the app's queries (a few rows each, waiting on fsync) ran no slower
 * without it. `--optimize-for-size` and a 1 MB young generation: the process's own JavaScript is the
 * socket server's, a few MB.
 */
export const EMBEDDED_DB_NODE_OPTIONS: readonly string[] = [
  "--liftoff-only",
  "--optimize-for-size",
  "--max-semi-space-size=1",
];

export interface EmbeddedServerOptions {
  /** PostgreSQL's shared_buffers, in MB (default DEFAULT_EMBEDDED_BUFFERS_MB). */
  sharedBuffersMb?: number;
}

export interface EmbeddedServer {
  /** The socket's directory: postgres.js takes it as `host`. */
  socketDir: string;
  /** The same as a libpq URL (`?host=<dir>`), as node-postgres (pg-boss) and psql read it. */
  url: string;
  /** The database process's pid. */
  pid: number;
  /** Why the database process stopped on its own, once it has. */
  failure(): Error | undefined;
  /** Stops serving and closes PGlite (its files flushed), then releases the directory. */
  stop(): Promise<void>;
}

/**
 * Starts PGlite in a child process (pglite-server-process.mjs), served on a unix socket that only this
 * user can reach: in `<dataDir>-socket/` beside the data (or a private temporary directory when that path
 * is too long for a socket, and for an in-memory database when `dataDir` is undefined). A directory is
 * owned by one app process at a time (see lockDataDir); the lock names the child too before it opens the
 * files, so that a later start waits for a child still closing them after this process was killed.
 */
export async function startEmbeddedServer(
  dataDir: string | undefined,
  options: EmbeddedServerOptions = {},
): Promise<EmbeddedServer> {
  const dir = dataDir === undefined ? undefined : resolve(dataDir);
  let lock: DataDirLock | undefined;
  if (dir) {
    mkdirSync(dirname(dir), { recursive: true }); // PGlite creates only the last folder of its data dir
    lock = await lockDataDir(dir);
  }
  const socket = socketDirFor(dir);
  const cleanUp = () => {
    if (socket.temporary) rmSync(socket.dir, { recursive: true, force: true });
    lock?.release();
  };
  const socketPath = join(socket.dir, `.s.PGSQL.${EMBEDDED_PORT}`);
  rmSync(socketPath, { force: true }); // left by a process that was killed (we own the directory now)

  const child = forkDatabaseProcess(lock, cleanUp);
  const watched = watchDatabaseProcess(child);
  try {
    await untilReady(child, {
      dataDir: dir,
      socketPath,
      maxConnections: MAX_CONNECTIONS,
      sharedBuffersMb: options.sharedBuffersMb ?? DEFAULT_EMBEDDED_BUFFERS_MB,
    });
  } catch (error) {
    await watched.ended();
    cleanUp();
    throw error;
  }

  let stopping: Promise<void> | undefined;
  return {
    socketDir: socket.dir,
    url: embeddedUrl(socket.dir),
    pid: child.pid!,
    failure: () => (stopping ? undefined : watched.failure()),
    stop() {
      stopping ??= (async () => {
        watched.askToStop();
        await watched.ended();
        cleanUp();
      })();
      return stopping;
    },
  };
}

/**
 * The database process, plain node with its own options whatever loader runs the app (tsx, vitest): the entry
 * is JavaScript. Its stdout is PGlite's chatter; its stderr (a crash) goes to the app's. Named in the lock
 * before it opens the files; `cleanUp` when it cannot be started.
 */
function forkDatabaseProcess(lock: DataDirLock | undefined, cleanUp: () => void): ChildProcess {
  try {
    const child = fork(fileURLToPath(new URL("./pglite-server-process.mjs", import.meta.url)), [], {
      execArgv: [...EMBEDDED_DB_NODE_OPTIONS],
      stdio: ["ignore", "ignore", "inherit", "ipc"],
      serialization: "json",
    });
    if (child.pid === undefined) throw new Error("the embedded database process could not be started");
    runInBackground(child.pid);
    lock?.recordServer(child.pid);
    return child;
  } catch (error) {
    cleanUp();
    throw error;
  }
}

/** Why the database process stopped on its own (its exit, an error, a failure it reported), and its ending. */
function watchDatabaseProcess(child: ChildProcess) {
  let failure: Error | undefined;
  let exited = false;
  let stopAsked = false;
  const exit = new Promise<void>((resolveExit) =>
    child.once("exit", (code, signal) => {
      exited = true;
      failure ??= new Error(`the embedded database process exited (${signal ? `signal ${signal}` : `code ${code}`})`);
      resolveExit();
    }),
  );
  child.on("error", (error) => (failure ??= error));
  child.on("message", (message: unknown) => {
    if (typeof message === "object" && message !== null && "failed" in message)
      failure ??= new Error(`the embedded database failed: ${String(message.failed)}`);
  });
  return {
    failure: () => failure,
    /** Asks the process to close PGlite (its files flushed) and exit. */
    askToStop() {
      if (!child.connected) return;
      stopAsked = true;
      child.send("stop");
    },
    /**
     * Waits for the process to exit once asked to (by "stop", or by closing the channel, after which it
     * closes PGlite and exits); killed past 15 s (it ignores SIGTERM).
     */
    async ended() {
      if (exited) return;
      if (child.connected && !stopAsked) child.disconnect();
      const timeout = new Promise<"timeout">((done) => setTimeout(done, 15_000, "timeout").unref());
      if ((await Promise.race([exit, timeout])) === "timeout") {
        child.kill("SIGKILL");
        await exit;
      }
    },
  };
}

/** Sends the process its start message and waits for its "ready"; rejects when it fails or exits first. */
function untilReady(child: ChildProcess, start: Record<string, unknown>): Promise<void> {
  return new Promise<void>((ready, fail) => {
    child.once("error", fail);
    child.once("exit", (code, signal) =>
      fail(
        new Error(
          `the embedded database process exited while starting (${signal ? `signal ${signal}` : `code ${code}`})`,
        ),
      ),
    );
    child.once("message", (message) =>
      message === "ready"
        ? ready()
        : fail(new Error(`the embedded database did not start: ${JSON.stringify(message)}`)),
    );
    child.send({ start });
  });
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

/** The libpq-style URL of the embedded server behind `socketDir` (for node-postgres; postgres.js takes `host`). */
export function embeddedUrl(socketDir: string): string {
  return `postgres://postgres@localhost:${EMBEDDED_PORT}/postgres?host=${encodeURIComponent(socketDir)}`;
}
