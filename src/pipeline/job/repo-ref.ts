import type { Run } from "../../db/schema.js";
import type { RepoRef } from "../../github/github-client.js";

export function repoRef(run: Pick<Run, "repositoryFullName">): RepoRef {
  const [owner = "", repo = ""] = run.repositoryFullName.split("/");
  return { owner, repo };
}
