import { posix } from "node:path";

/**
 * Whether a symbolic link at `path` (repository-relative, "/"-separated) pointing at `target` leads
 * outside the repository's tree: an absolute target, one whose `..` climbs above the root, or one
 * into `.git`. Such a link in the fixer's change is refused: GitHub would carry it to every checkout.
 */
export function isEscapingSymlink(path: string, target: string): boolean {
  if (target === "" || target.includes("\0")) return true;
  if (target.startsWith("/") || /^[A-Za-z]:[\\/]/.test(target) || target.startsWith("\\")) return true;
  const resolved = posix.normalize(posix.join(posix.dirname(path), target.replace(/\\/g, "/")));
  if (resolved === ".." || resolved.startsWith("../")) return true;
  const first = resolved.split("/")[0];
  return first === ".git";
}
