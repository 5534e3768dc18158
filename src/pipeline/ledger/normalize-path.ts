/**
 * A path as a reviewer wrote it → the repository-relative path the bot keys findings on, or
 * `undefined` when it does not name a file inside the repository.
 *
 * - strips leading `./` and one git diff prefix `a/` or `b/` (reviewers copy paths from the diff
 *   header); a repository whose top-level folder really is `a` or `b` loses that segment, the
 *   price of accepting the far more common diff-header form;
 * - collapses `//` and `.` segments, resolves `..` as long as it stays inside the repository;
 * - an absolute path is accepted only under `repoRoot` (the workspace the agent ran in) and made
 *   relative to it; any other absolute path (`/etc/passwd`, `~/x`, `C:\x`, `\\server\x`) is rejected,
 *   as is a `..` that escapes the repository, an empty path, or one containing a NUL byte.
 */
export function normalizePath(path: string, repoRoot?: string): string | undefined {
  let rest = path.trim();
  if (rest === "" || rest.includes("\0")) return undefined;

  if (isAbsolute(rest)) {
    const root = repoRoot?.replace(/\/+$/, "");
    if (!root || !rest.startsWith(`${root}/`)) return undefined;
    rest = rest.slice(root.length + 1);
  } else {
    while (rest.startsWith("./")) rest = rest.slice(2).replace(/^\/+/, "");
    if (/^[ab]\//.test(rest)) rest = rest.slice(2);
  }

  const segments: string[] = [];
  for (const segment of rest.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (segments.pop() === undefined) return undefined;
    } else segments.push(segment);
  }
  return segments.length === 0 ? undefined : segments.join("/");
}

function isAbsolute(path: string): boolean {
  return (
    path.startsWith("/") ||
    path.startsWith("\\") ||
    /^[A-Za-z]:[\\/]/.test(path) ||
    path === "~" ||
    path.startsWith("~/")
  );
}
