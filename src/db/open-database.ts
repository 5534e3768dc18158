import type { DatabaseHandle } from "./database.js";
import { DatabaseUnavailableError } from "./database-unavailable-error.js";
import { EMBEDDED_PORT, embeddedUrl, startEmbeddedServer } from "./embedded/start-embedded-server.js";
import { openPostgres } from "./open-postgres.js";

export interface OpenDatabaseOptions {
  /** postgres:// URL; when absent the embedded PGlite database is used. */
  databaseUrl?: string;
  /** PGlite data directory; `undefined` with no databaseUrl means in-memory (tests). */
  pgliteDir?: string;
  /** The embedded database's shared buffers in MB (see startEmbeddedServer). */
  embeddedBuffersMb?: number;
  /** postgres.js pool size (PostgreSQL; the embedded database has its own, see EMBEDDED_POOL). */
  maxConnections?: number;
}

/**
 * The app's pool on the embedded database. PGlite is one session and runs one batch or transaction at a
 * time whatever the number of connections: two let one carry pipelined queries while the other is held
 * by a transaction (the server queues what the held one blocks), and each connection prepares its own
 * copy of every statement in that one session.
 */
const EMBEDDED_POOL = 2;

/**
 * Opens PostgreSQL through postgres.js when a URL is given; else starts embedded PGlite in its own process
 * behind a unix socket and opens it the same way (kind "pglite": one process, no advisory locks needed).
 */
export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) return connectPostgres(options.databaseUrl, options.maxConnections ?? 10);
  const server = await startEmbeddedServer(options.pgliteDir, { sharedBuffersMb: options.embeddedBuffersMb });
  const handle = connectEmbedded(server.socketDir);
  return {
    ...handle,
    kind: "pglite",
    async ping() {
      const failure = server.failure();
      if (failure) throw failure;
      await handle.ping();
    },
    async close() {
      try {
        await handle.close();
      } finally {
        await server.stop();
      }
    },
  };
}

/**
 * PostgreSQL at `url`, asked `select 1` before it is handed out: a URL the driver cannot read, a server that
 * refuses or is not there, a wrong password or a missing database is a DatabaseUnavailableError here, not a
 * driver's stack trace from whichever query comes first.
 */
async function connectPostgres(url: string, max: number): Promise<DatabaseHandle> {
  let handle: DatabaseHandle | undefined;
  try {
    handle = openPostgres(url, { max });
    await handle.ping();
    return handle;
  } catch (error) {
    // The pool never connected; how its closing goes changes nothing of what is reported.
    await handle?.close().catch(() => undefined);
    throw new DatabaseUnavailableError(url, error);
  }
}

/**
 * A client of an embedded database another process of this app serves (ROLE=all's worker process): the
 * same pool as the serving process's own, on the unix socket in `socketDir`.
 */
export function connectEmbedded(socketDir: string): DatabaseHandle {
  const url = embeddedUrl(socketDir);
  return {
    ...openPostgres(url, {
      host: socketDir,
      port: EMBEDDED_PORT,
      user: "postgres",
      database: "postgres",
      max: EMBEDDED_POOL,
      // Connections are never recycled: the statements a connection prepares stay in the one session after it closes.
      max_lifetime: 0,
    }),
    kind: "pglite",
  };
}
