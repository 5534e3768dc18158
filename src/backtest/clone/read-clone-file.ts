import type { CloneGit } from "./clone-git.js";

/** A file of the clone at `rev` (`HEAD:.github/no-mistakes.yml`), or undefined when it is not there. */
export async function readCloneFile(git: CloneGit, rev: string, path: string): Promise<string | undefined> {
  const blob = (await git(["rev-parse", "--verify", "--quiet", `${rev}:${path}`], [1]))?.trim();
  return blob ? git(["cat-file", "blob", blob]) : undefined;
}
