/**
 * Why applying a delivery failed. `database`: the database is unreachable, restarting, overloaded or
 * busy (a connection error, SQLSTATE classes 08, 40, 53, 55, 57, 58) — the record is fine, wait and try
 * again for as long as it takes. `record`: anything else (bad data, a bug) — a few more tries, then the
 * record is set aside so the deliveries behind it are not held up.
 */
export type ApplyFailure = "database" | "record";

const CONNECTION_CODES =
  /^(E(CONN|PIPE|TIMEDOUT|HOSTUNREACH|NETUNREACH|AI_AGAIN|NOTFOUND)|CONNECT(ION)?_|CONNECT_TIMEOUT)/;
const RETRYABLE_SQLSTATE_CLASSES = new Set(["08", "40", "53", "55", "57", "58"]);

export function classifyApplyError(error: unknown): ApplyFailure {
  // Drizzle wraps the driver's error (the one with the code) as `cause`.
  let code: unknown;
  for (
    let e = error as { code?: unknown; cause?: unknown } | null | undefined, depth = 0;
    e && depth < 5 && code === undefined;
    e = e.cause as typeof e, depth++
  )
    code = e.code;
  if (typeof code !== "string") return "record";
  if (/^[0-9A-Z]{5}$/.test(code)) return RETRYABLE_SQLSTATE_CLASSES.has(code.slice(0, 2)) ? "database" : "record";
  return CONNECTION_CODES.test(code) ? "database" : "record";
}
