import { REDACTED } from "./redact-secrets.js";

/**
 * Query parameters whose value is a credential or one step from one: OAuth's `code` and `state` (a code
 * and its state sign a person in once), the setup flow's one-time code, and anything named like a token,
 * secret, password, key, signature or session.
 */
const SECRET_PARAM =
  /^(code|state|nonce|otp|sig|jwt|key|auth)$|token|secret|passw|pwd|api[-_]?key|private[-_]?key|signature|credential|session|cookie|authorization|[-_]code$/i;

/**
 * A request URL fit for a log line: the path as it is, and each query parameter whose name is in
 * SECRET_PARAM with its value replaced by `[redacted]` (the name is kept, so the line still says what was
 * asked). Other parameters are kept as they came.
 */
export function redactUrl(url: string): string {
  const at = url.indexOf("?");
  if (at < 0) return url;
  const query = url
    .slice(at + 1)
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      const name = eq < 0 ? pair : pair.slice(0, eq);
      return SECRET_PARAM.test(decodeName(name)) ? `${name}=${REDACTED}` : pair;
    })
    .join("&");
  return `${url.slice(0, at)}?${query}`;
}

/** The parameter's name as the server reads it (`%74oken` is `token`); a malformed escape is read as written. */
function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, " "));
  } catch {
    return name;
  }
}
