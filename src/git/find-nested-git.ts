import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { isDotGitName } from "./is-dot-git-name.js";

/**
 * Every entry below `dir` named like a repository directory (see `isDotGitName`), file, directory or
 * link, at any depth except the workspace's own `<dir>/.git`; repository-relative paths. The walk
 * reads directory entries without following a single link, so nothing it finds is opened: a
 * `gitdir:` file pointing at another repository is reported, not read.
 */
export async function findNestedGit(dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (relative: string): Promise<void> => {
    const entries = await readdir(relative === "" ? dir : join(dir, relative), { withFileTypes: true });
    for (const entry of entries) {
      const path = relative === "" ? entry.name : `${relative}/${entry.name}`;
      if (path === ".git") continue;
      if (isDotGitName(entry.name)) found.push(path);
      else if (entry.isDirectory()) await walk(path);
    }
  };
  await walk("");
  return found.sort();
}
