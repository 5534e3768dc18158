/**
 * Whether a request's URL is the webhook path, as @octokit/webhooks' middleware matches it: trailing
 * slashes trimmed, then the URL's pathname (query dropped, dot segments resolved; escapes kept). A URL that
 * is exactly the (canonical) path — every GitHub delivery — is matched without parsing it.
 */
export function webhookPathMatcher(path: string): (url: string | undefined) => boolean {
  const webhookPath = trimTrailingSlashes(path);
  const canonical = pathnameOf(webhookPath) === webhookPath;
  return (url) => (canonical && url === webhookPath) || pathnameOf(url) === webhookPath;
}

/** The URL's path (trailing slashes of the whole URL trimmed first); undefined when it cannot be read. */
function pathnameOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    return new URL(trimTrailingSlashes(url), "http://localhost").pathname;
  } catch {
    return undefined; // the middleware answers 422 without reading
  }
}

function trimTrailingSlashes(path: string): string {
  return path.replace(/\/+$/, "") || "/";
}
