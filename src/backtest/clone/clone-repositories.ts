import type { CloneGit } from "./clone-git.js";
import { repositoryOfUrl } from "./repository-of-url.js";

/**
 * The hosted repositories (`owner/repo`) the clone's remotes name, each once, in the order git lists them:
 * what a golden file's PR URL is compared with. Empty when the clone has no remote naming one (then it
 * cannot be told whose PRs are whose).
 */
export async function cloneRepositories(git: CloneGit): Promise<string[]> {
  const out = await git(["config", "--get-regexp", "^remote\\..*\\.url$"], [1]);
  const repos: string[] = [];
  for (const line of (out ?? "").split("\n")) {
    const repo = repositoryOfUrl(line.slice(line.indexOf(" ") + 1));
    if (repo && !repos.some((r) => r.toLowerCase() === repo.toLowerCase())) repos.push(repo);
  }
  return repos;
}
