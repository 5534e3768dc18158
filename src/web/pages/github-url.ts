/**
 * A page on GitHub: `${webOrigin}/<owner>/<name>/<rest>` (rest like `pull/12#discussion_r5`, already
 * encoded by the caller), the repository's segments encoded.
 */
export function githubUrl(webOrigin: string, repositoryFullName: string, rest: string): string {
  const origin = webOrigin.replace(/\/+$/, "");
  return `${origin}/${repositoryFullName.split("/").map(encodeURIComponent).join("/")}/${rest}`;
}
