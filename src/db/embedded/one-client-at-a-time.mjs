// The PGlite instance as the socket server sees it (see pglite-server-process.mjs).
//
// PGlite is one PostgreSQL session. PGLiteSocketServer shares it between its connections one protocol
// message at a time, and keeps serving the same connection only while `isInTransaction()` says an explicit
// transaction is open. A batch of the extended protocol (Parse, Bind, Describe, Execute … Sync) is no
// explicit transaction, yet another connection's Parse in the middle of it replaces the batch's unnamed
// statement, its Bind the batch's portal. So this view says "in a transaction" from a connection's first
// message until the database answers ReadyForQuery: one batch, or one transaction, at a time.

/** ReadyForQuery: 'Z', length 5, status. */
const READY_FOR_QUERY = 0x5a;
/** Terminate ('X'): the client leaves; PGlite answers nothing. */
const TERMINATE = 0x58;
const SYNC = new Uint8Array([0x53, 0, 0, 0, 4]);

/**
 * @param {import("@electric-sql/pglite").PGlite} pglite
 * @param {(error: unknown) => void} onFatal PGlite itself failed (not a statement): nothing can be served.
 * @returns {import("@electric-sql/pglite").PGlite}
 */
export function oneClientAtATime(pglite, onFatal) {
  let midBatch = false;

  /** @type {(message: Uint8Array, options?: { onRawData?: (data: Uint8Array) => void }) => Promise<void>} */
  async function execProtocolRawStream(message, options) {
    let tail = new Uint8Array(0);
    try {
      await pglite.execProtocolRawStream(message, {
        ...options,
        onRawData: (data) => {
          tail = lastBytes(tail, data, 6);
          options?.onRawData?.(data);
        },
      });
    } catch (error) {
      onFatal(error);
      throw error;
    }
    midBatch = message[0] !== TERMINATE && !(tail.length === 6 && tail[0] === READY_FOR_QUERY && tail[4] === 5);
  }

  /** The server rolls back a transaction its client left open: first end a batch the client left half sent. */
  async function exec(/** @type {string} */ sql, /** @type {unknown} */ options) {
    if (midBatch) await pglite.runExclusive(() => pglite.execProtocolRaw(SYNC));
    midBatch = false;
    return pglite.exec(sql, /** @type {any} */ (options));
  }

  return new Proxy(pglite, {
    get(target, property) {
      if (property === "isInTransaction") return () => midBatch || target.isInTransaction();
      if (property === "execProtocolRawStream") return execProtocolRawStream;
      if (property === "exec") return exec;
      // PGlite keeps its state in private fields: its methods must run on the instance itself.
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** The last `n` bytes of `before` followed by `data`. */
function lastBytes(/** @type {Uint8Array} */ before, /** @type {Uint8Array} */ data, /** @type {number} */ n) {
  if (data.length >= n) return data.slice(data.length - n);
  const joined = new Uint8Array(before.length + data.length);
  joined.set(before);
  joined.set(data, before.length);
  return joined.slice(Math.max(0, joined.length - n));
}
