/** A repository on GitHub, `${webOrigin}/<owner>/<name>`, its segments encoded: its PRs and commits are paths under it. */
export function githubRepositoryUrl(webOrigin: string, repositoryFullName: string): string {
  return `${webOrigin.replace(/\/+$/, "")}/${repositoryFullName.split("/").map(encodeURIComponent).join("/")}`;
}
