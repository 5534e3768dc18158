import type { GoldenPr } from "./golden-pr.js";

/**
 * The line said when a golden file names PRs of several repositories (the public benchmark's name a fork
 * made for it and the upstream): how many PRs each has, which of them this run skips, and, when the clone
 * is not the repository most of them name, that a clone of that one reviews more. Undefined for one.
 */
export function goldenRepositoriesLine(
  golden: readonly GoldenPr[],
  cloneRepos: readonly string[],
  acceptOtherRepos: boolean,
): string | undefined {
  const counts = new Map<string, { name: string; prs: number }>();
  for (const { key } of golden) {
    if (!key.repo) continue;
    const entry = counts.get(key.repo.toLowerCase()) ?? { name: key.repo, prs: 0 };
    entry.prs++;
    counts.set(key.repo.toLowerCase(), entry);
  }
  if (counts.size < 2) return undefined;
  const ranked = [...counts.values()].sort((a, b) => b.prs - a.prs || a.name.localeCompare(b.name));
  const named = `the golden file names PRs of ${ranked.length} repositories: ${ranked.map((r) => `${r.name} ${r.prs}`).join(", ")}`;
  if (acceptOtherRepos) return `${named}; all are looked up by number in the clone (--accept-other-repos)`;
  // Without a remote to tell by, unknownRepositoryWarning says what happens to them.
  if (cloneRepos.length === 0) return named;
  const own = (r: { name: string }) => cloneRepos.some((c) => c.toLowerCase() === r.name.toLowerCase());
  const kept = ranked.filter(own);
  const skipped = ranked.filter((r) => !own(r));
  const reviews =
    kept.length > 0
      ? `this run reviews those of ${kept.map((r) => r.name).join(", ")} (the clone's)`
      : `this run reviews none of them (the clone's remotes name ${cloneRepos.join(", ")})`;
  const most = ranked[0]!;
  const more = !own(most) && most.prs > (kept[0]?.prs ?? 0) ? `; a clone of ${most.name} reviews more` : "";
  return `${named}; ${reviews} and skips ${skipped.map((r) => `the ${r.prs} of ${r.name}`).join(" and ")}${more}`;
}
