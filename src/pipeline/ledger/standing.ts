import type { Run } from "../../db/schema.js";
import type { GitHubClient, RepoRef } from "../../github/github-client.js";

export const WRITERS: ReadonlySet<string> = new Set(["admin", "maintain", "write"]);

/** Who someone is on the PR: its author, and whether they have write access (admin, maintain, write). */
export async function standing(
  github: GitHubClient,
  ref: RepoRef,
  run: Pick<Run, "authorLogin">,
  login: string,
): Promise<{ author: boolean; writer: boolean; permission: string }> {
  const permission = await github.getPermission(ref, login);
  return {
    author: run.authorLogin !== "" && run.authorLogin.toLowerCase() === login.toLowerCase(),
    writer: WRITERS.has(permission),
    permission,
  };
}
