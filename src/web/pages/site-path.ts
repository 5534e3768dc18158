/** This site's page of a repository (`/repos/<owner>/<name>`) or of one of its PRs (`…/pull/<n>`), each segment encoded. */
export function sitePath(repositoryFullName: string, prNumber?: number): string {
  const repo = `/repos/${repositoryFullName.split("/").map(encodeURIComponent).join("/")}`;
  return prNumber === undefined ? repo : `${repo}/pull/${prNumber}`;
}
