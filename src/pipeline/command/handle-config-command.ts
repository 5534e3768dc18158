import type { GitHubClient, RepoRef } from "../../github/github-client.js";
import { readRepoConfig } from "../job/read-repo-config.js";
import { renderConfig } from "./render-config.js";

/**
 * `/no-mistakes config`, for anyone (like `status`): the repository's config in effect, read as a run
 * reads it (default branches only), with where each setting came from and what is wrong in the files.
 */
export async function handleConfigCommand(
  github: GitHubClient,
  ref: RepoRef,
  job: { prNumber: number; author: string },
): Promise<void> {
  const read = await readRepoConfig(github, ref);
  await github.createIssueComment(ref, job.prNumber, renderConfig(job.author, ref, read));
}
