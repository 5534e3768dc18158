/** A folder of the paths kept, by name: it exists only when a kept path lies beneath it. */
type KeptFolder = Map<string, KeptFolder>;

/**
 * Each of `paths` (some of `all`) replaced by its outermost folder that holds no other path of `all`, or
 * kept as it is when every folder above it does: a vendored tree of thousands of changed files becomes
 * one pathspec on git's command line, not thousands. Time is linear in the paths' total length.
 */
export function outermostFolders(paths: readonly string[], all: readonly string[]): string[] {
  const chosen = new Set(paths);
  const root: KeptFolder = new Map();
  for (const path of all) {
    if (chosen.has(path)) continue;
    let folder = root;
    for (const part of path.split("/").slice(0, -1)) {
      let next = folder.get(part);
      if (!next) folder.set(part, (next = new Map()));
      folder = next;
    }
  }
  const out = new Set<string>();
  for (const path of paths) {
    const parts = path.split("/");
    let folder: KeptFolder | undefined = root;
    let depth = 0;
    while (depth < parts.length - 1 && folder) folder = folder.get(parts[depth++]!);
    // the loop stopped at the first folder no kept path is under, or at the path itself
    out.add(folder ? path : parts.slice(0, depth).join("/"));
  }
  return [...out];
}
