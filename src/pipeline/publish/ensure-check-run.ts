import type { CheckRunUpdate, GitHubClient, RepoRef } from "../../github/github-client.js";
import { writeOnce } from "./write-once.js";
import { CHECK_NAME } from "../../domain/check-name.js";

/** The commit's `no-mistakes` check run, reused when one exists (a retried job posts one check). */
export async function ensureCheckRun(
  github: GitHubClient,
  ref: RepoRef,
  headSha: string,
  update: CheckRunUpdate,
): Promise<number> {
  const existing = await github.findCheckRun(ref, headSha, CHECK_NAME);
  if (existing !== undefined) {
    await github.updateCheckRun(ref, existing, update);
    return existing;
  }
  // A lost answer may hide a check run that landed: found by name, it is updated, not created twice.
  return writeOnce(
    () => github.createCheckRun(ref, headSha, CHECK_NAME, update),
    async () => {
      const landed = await github.findCheckRun(ref, headSha, CHECK_NAME);
      if (landed !== undefined) await github.updateCheckRun(ref, landed, update);
      return landed;
    },
  );
}
