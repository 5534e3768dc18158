/**
 * `owner/repo` of a git remote URL — `https://github.com/o/r.git`, `git@github.com:o/r.git`,
 * `ssh://git@host:22/o/r`, a GitHub Enterprise host alike — or undefined for what names no hosted
 * repository (a local path, a bare name).
 */
export function repositoryOfUrl(url: string): string | undefined {
  const text = url.trim();
  const path =
    /^[a-z][a-z0-9+.-]*:\/\/[^/]+\/(.+)$/i.exec(text)?.[1] ?? // scheme://host[:port]/path
    /^(?:[^/@:\s]+@)?[^/:\s]+:(?!\/)(.+)$/.exec(text)?.[1]; // [user@]host:path (scp-like)
  if (!path) return undefined;
  const parts = path
    .replace(/\/+$/, "")
    .replace(/\.git$/, "")
    .split("/")
    .filter(Boolean);
  if (parts.length < 2) return undefined;
  return parts.slice(-2).join("/");
}
