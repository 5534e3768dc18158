import { encodeBasicAuth } from "./encode-basic-auth.js";

const REDACTED = "[redacted]";

/**
 * Removes the token (raw and in its Basic-auth base64 form), any Authorization header value and
 * any credentials embedded in a URL from git's output.
 */
export function redactGitOutput(text: string, token?: string): string {
  let out = text;
  if (token) {
    const secrets = [encodeBasicAuth(token), Buffer.from(token, "utf8").toString("base64"), token];
    for (const secret of secrets) out = out.split(secret).join(REDACTED);
  }
  return out
    .replace(/(authorization:\s*(?:basic|bearer|token)\s+)[^\s'"]+/gi, `$1${REDACTED}`)
    .replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s@'"]+@/gi, `$1${REDACTED}@`);
}
