export interface TrustedGitHosts {
  /** Host names (optionally host:port) that may receive the installation token. */
  hosts: string[];
  /** The configured GitHub protocol: a token never travels over http unless this is http. */
  protocol: "https" | "http";
}

/**
 * The token to put on git's command line for `url`, or undefined: a clone URL from a webhook is
 * trusted only on the configured GitHub host (or an explicitly trusted mirror), so a token never
 * goes elsewhere, and never over plain http unless GitHub itself is configured that way.
 */
export function tokenForUrl(url: string, token: string, trusted: TrustedGitHosts): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined; // a local path: no credentials needed
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return undefined;
  if (parsed.protocol === "http:" && trusted.protocol !== "http") return undefined;
  const host = parsed.host.toLowerCase();
  const hostname = parsed.hostname.toLowerCase();
  return trusted.hosts.some((h) => h.toLowerCase() === host || h.toLowerCase() === hostname) ? token : undefined;
}
