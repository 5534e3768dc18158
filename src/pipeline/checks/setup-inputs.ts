import type { GitWorkspace } from "../../git/git-workspace.js";
import { pathspecGlob } from "../../git/pathspec-glob.js";

/** A setup input as the cache key sees it: its path and its blob (its content, by git's hash). */
export interface SetupInput {
  path: string;
  id: string;
}

/** The files of commit `sha` the setup_inputs globs match, sorted by path. */
export async function setupInputs(
  workspace: GitWorkspace,
  sha: string,
  globs: readonly string[],
): Promise<SetupInput[]> {
  const matchers = globs.map(pathspecGlob);
  return (await workspace.listFiles(sha))
    .filter((file) => matchers.some((match) => match(file.path)))
    .map(({ path, id }) => ({ path, id }))
    .sort((a, b) => a.path.localeCompare(b.path));
}

/** Whether two commits' setup inputs are the same files with the same content. */
export function sameInputs(a: readonly SetupInput[], b: readonly SetupInput[]): boolean {
  return a.length === b.length && a.every((file, i) => file.path === b[i]!.path && file.id === b[i]!.id);
}
