import { ConfigError } from "../config/config-error.js";
import { createSecretRedactor } from "../logging/redact-secrets.js";

/** What to do when PostgreSQL cannot be used: the start and `npm run doctor` say the same. */
export const DATABASE_URL_FIX =
  "check DATABASE_URL (host, port, user, password, database name) and that PostgreSQL is running";

/** The driver's and the system's codes for a connection that got nowhere, in words. */
const REASONS: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host name lookup failed",
  ETIMEDOUT: "no answer, timed out",
  CONNECT_TIMEOUT: "no answer, timed out",
  ECONNRESET: "connection reset",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
};

/**
 * PostgreSQL (DATABASE_URL) cannot be used: `detail` says where (the URL without its password) and why,
 * `fix` what to do. A ConfigError, so the start prints one line naming DATABASE_URL, without a stack trace.
 * The driver's error is not kept: a URL it cannot parse is in it whole, password included.
 */
export class DatabaseUnavailableError extends ConfigError {
  readonly detail: string;
  readonly fix: string;

  constructor(url: string, error: unknown) {
    const code = (error as { code?: unknown } | null)?.code;
    const { detail, fix } =
      code === "ERR_INVALID_URL" || error instanceof URIError
        ? {
            detail: "is not a valid URL",
            fix: "write it as postgres://user:password@host:5432/database, with special characters in the password percent-encoded",
          }
        : { detail: `cannot connect to ${withoutPassword(url)} (${reasonOf(error)})`, fix: DATABASE_URL_FIX };
    const redact = createSecretRedactor([url, ...passwordsOf(url)]);
    super("The environment", [redact(`DATABASE_URL: ${detail}; ${fix}`)]);
    this.name = "DatabaseUnavailableError";
    this.detail = redact(detail);
    this.fix = fix;
  }
}

function reasonOf(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  // PostgreSQL's own refusals (wrong password, no such database or role) say it best in their message.
  const reason = typeof code === "string" ? REASONS[code] : undefined;
  return reason ?? (typeof message === "string" && message ? message : String(error));
}

/** `postgres://user@host:5432/db` from `postgres://user:secret@host:5432/db`. */
function withoutPassword(url: string): string {
  return url.replace(/^([a-z]+:\/\/[^:@/]*):[^@]*@/i, "$1@");
}

/** The password as written in the URL and as the server gets it (percent-decoded). */
function passwordsOf(url: string): string[] {
  const written = /^[a-z]+:\/\/[^:@/]*:([^@]*)@/i.exec(url)?.[1];
  if (!written) return [];
  try {
    return [written, decodeURIComponent(written)];
  } catch {
    return [written];
  }
}
