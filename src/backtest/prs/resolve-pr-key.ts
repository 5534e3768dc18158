import type { CloneGit } from "../clone/clone-git.js";
import type { MergedPr } from "./list-merged-prs.js";
import type { PrKey } from "./pr-key.js";

/** Where a PR's head may be in a clone that fetched GitHub's PR refs (`git fetch origin "+refs/pull/<n>/head:refs/pull/<n>/head"`, or all of them). */
const PULL_REFS = (n: number) => [
  `refs/pull/${n}/head`,
  `refs/remotes/origin/pull/${n}/head`,
  `refs/remotes/origin/pull/${n}`,
  `refs/remotes/origin/pr/${n}`,
  `refs/heads/pr-${n}`,
];

/**
 * A golden or pairs file's PR in the clone, found in this order: `<base>..<head>` as given; a PR number
 * by its merge commit on `branch` (base = first parent, head = second); by a squash commit whose subject
 * ends `(#N)` (base = its parent; head = the PR's own ref when fetched, else the commit); by the PR's
 * ref alone (base = `branch`). Undefined, with why, when none is there.
 */
export async function resolvePrKey(
  git: CloneGit,
  key: PrKey,
  branch: string,
  merges: readonly MergedPr[],
): Promise<{ pr: MergedPr } | { missing: string }> {
  if (key.base && key.head) {
    const [baseSha, headSha] = await Promise.all([commitOf(git, key.base), commitOf(git, key.head)]);
    if (!baseSha || !headSha)
      return { missing: `${key.text}: ${!baseSha ? key.base : key.head} is not a commit of the clone` };
    return { pr: { baseSha, headSha, title: (await subjectOf(git, headSha)) ?? key.text } };
  }
  const n = key.number!;
  const merged = merges.find((m) => m.number === n);
  if (merged) return { pr: merged };
  let pullHead: string | undefined;
  for (const ref of PULL_REFS(n)) {
    pullHead = await commitOf(git, ref);
    if (pullHead) break;
  }
  const ending = new RegExp(`\\(#${n}\\)\\s*$`);
  const squashes = await git([
    "log",
    "--first-parent",
    "--format=%H%x00%P%x00%s",
    "-E",
    `--grep=\\(#${n}\\)[[:space:]]*$`,
    branch,
    "--",
  ]);
  for (const line of (squashes ?? "").split("\n")) {
    const [sha, parents, subject] = line.split("\0");
    if (!sha || !parents || !subject || !ending.test(subject)) continue;
    const baseSha = parents.split(" ")[0]!;
    return { pr: { baseSha, headSha: pullHead ?? sha, number: n, title: subject.replace(/\s*\(#\d+\)\s*$/, "") } };
  }
  if (pullHead) {
    const baseSha = await commitOf(git, branch);
    if (baseSha)
      return { pr: { baseSha, headSha: pullHead, number: n, title: (await subjectOf(git, pullHead)) ?? `#${n}` } };
  }
  return {
    missing: `${key.text}: no merge or squash commit for #${n} on ${branch}, and no fetched PR ref (${PULL_REFS(n)[0]}); name its commits in a --pairs file`,
  };
}

async function commitOf(git: CloneGit, rev: string): Promise<string | undefined> {
  if (rev.startsWith("-")) return undefined;
  return (await git(["rev-parse", "--verify", "--quiet", `${rev}^{commit}`], [1]))?.trim() || undefined;
}

async function subjectOf(git: CloneGit, sha: string): Promise<string | undefined> {
  return (await git(["log", "-1", "--format=%s", sha, "--"]))?.trim() || undefined;
}
