import { isDotGitName } from "./is-dot-git-name.js";

/** Links followed in one chain before it counts as a cycle (Linux's own limit is 40). */
const MAX_HOPS = 40;

/**
 * Where following the symbolic link at `path` leads, resolved against the whole tree the way a
 * checkout with real links would: `links` maps every symbolic link in the tree (repository-relative,
 * "/"-separated) to its target, so a chain through other links and `..` after a link are followed as
 * the filesystem follows them (`a/b -> ..` then `c -> a/b/../outside` leaves the tree), not read as
 * text. "outside": an absolute target, a climb above the root, or a way into a `.git` directory;
 * "cycle": the chain never ends; undefined: it stays in the tree (the end need not exist).
 */
export function symlinkEscape(path: string, links: ReadonlyMap<string, string>): "outside" | "cycle" | undefined {
  const resolved = path.split("/").filter((c) => c !== "" && c !== ".");
  resolved.pop();
  let pending = targetComponents(links.get(path));
  if (!pending) return "outside";
  let hops = 0;
  while (pending.length > 0) {
    const component = pending.shift()!;
    if (component === "" || component === ".") continue;
    if (component === "..") {
      if (resolved.length === 0) return "outside";
      resolved.pop();
      continue;
    }
    if (isDotGitName(component)) return "outside";
    resolved.push(component);
    const target = links.get(resolved.join("/"));
    if (target === undefined) continue;
    if (++hops > MAX_HOPS) return "cycle";
    const next = targetComponents(target);
    if (!next) return "outside";
    resolved.pop();
    pending = [...next, ...pending];
  }
  return undefined;
}

/** A link's target as path components, or undefined when it is absolute (or unusable) wherever it is read. */
function targetComponents(target: string | undefined): string[] | undefined {
  if (target === undefined || target === "" || target.includes("\0")) return undefined;
  if (target.startsWith("/") || /^[A-Za-z]:[\\/]/.test(target) || target.startsWith("\\")) return undefined;
  return target.replace(/\\/g, "/").split("/");
}

/** Whether one link, judged alone (no other link in the tree), leads out of it. */
export function isEscapingSymlink(path: string, target: string): boolean {
  return symlinkEscape(path, new Map([[path, target]])) !== undefined;
}
