import type { CheckRunUpdate, GitHubClient, RepoRef } from "../github/github-client.js";

export const CHECK_NAME = "no-mistakes";

/** The commit's `no-mistakes` check run, reused when one exists (a retried job posts one check). */
export async function ensureCheckRun(github: GitHubClient, ref: RepoRef, headSha: string, update: CheckRunUpdate): Promise<number> {
  const existing = await github.findCheckRun(ref, headSha, CHECK_NAME);
  if (existing !== undefined) {
    await github.updateCheckRun(ref, existing, update);
    return existing;
  }
  return github.createCheckRun(ref, headSha, CHECK_NAME, update);
}
