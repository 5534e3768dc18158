import type { PrKey } from "./pr-key.js";

/**
 * The one line said when PR URLs name repositories but the clone's remotes name none: whose PRs are whose
 * cannot be told, so they are looked up by number. Undefined when there is nothing to warn of.
 */
export function unknownRepositoryWarning(
  keys: readonly (PrKey | undefined)[],
  cloneRepos: readonly string[],
  acceptOtherRepos: boolean,
): string | undefined {
  if (cloneRepos.length > 0 || acceptOtherRepos) return undefined;
  const named = [...new Set(keys.map((k) => k?.repo).filter((r): r is string => r !== undefined))];
  if (named.length === 0) return undefined;
  return `warning: the clone has no remote naming a hosted repository, so whether the PRs of ${named.join(", ")} are its own cannot be told: they are looked up by number (add its remote, e.g. \`git remote add origin https://github.com/${named[0]}\`, to have another repository's PRs skipped)`;
}
