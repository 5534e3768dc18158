import type { IncomingHttpHeaders } from "node:http";
import { REDACTED } from "./redact-secrets.js";

/**
 * Headers that carry a credential: a bearer or basic token, and cookies — the run view's `nm_session`
 * (a signed-in person's session), the sign-in's state cookie, the setup flow's proof.
 */
const SECRET_HEADERS = ["authorization", "proxy-authorization", "cookie", "set-cookie"] as const;

/** A copy of `headers` for a log line, every credential header's value replaced by `[redacted]`. */
export function redactHeaders(headers: IncomingHttpHeaders): Record<string, string | string[] | undefined> {
  const copy: Record<string, string | string[] | undefined> = { ...headers };
  for (const name of SECRET_HEADERS) if (copy[name] !== undefined) copy[name] = REDACTED;
  return copy;
}
