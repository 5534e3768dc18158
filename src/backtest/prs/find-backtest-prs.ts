// The backtest's prs room: which pull requests a backtest reviews (findBacktestPrs, this file) — read from a
// golden file, a pairs file, the merge history or the app's own decided findings (--from-history), each key
// resolved in the clone with the pushes to replay — and the warnings about PRs left out. It imports the clone room.

import type { BacktestPr } from "./backtest-pr.js";
import type { CloneGit } from "../clone/clone-git.js";
import type { GoldenPr } from "./golden-pr.js";
import { listMergedPrs, type MergedPr } from "./list-merged-prs.js";
import type { PrPair } from "./parse-pairs-file.js";
import { prId } from "./pr-id.js";
import type { PrKey } from "./pr-key.js";
import { replayPushes } from "./replay-pushes.js";
import { resolvePrKey } from "./resolve-pr-key.js";

/** Where the PRs come from, and how each is replayed. */
export interface PrSource {
  golden?: GoldenPr[];
  pairs?: PrPair[];
  /** The merge commits of `branch` (base = first parent, head = second), newest first, at most `limit`. */
  merges?: boolean;
  branch: string;
  limit?: number;
  replay: boolean;
  maxPushes?: number;
  /** The repositories the clone's remotes name (cloneRepositories); empty when it cannot be told. */
  cloneRepos?: readonly string[];
  /** --accept-other-repos: PRs named by another repository's URL are looked up by number all the same. */
  acceptOtherRepos?: boolean;
}

/** What findBacktestPrs found, and what it left out. */
export interface FoundPrs {
  prs: BacktestPr[];
  /** PRs a golden or pairs file names that the clone does not have. */
  missing: string[];
  /** PRs a golden or pairs file names by another repository's URL (not the clone's remotes'): skipped, each with why. */
  otherRepository: string[];
  /** Golden PRs the file itself flags (its `az_comment`), each with the flag: skipped, as their issues may not be the PR's. */
  flagged: string[];
  /** PRs found in the history that the golden file does not name. */
  withoutGolden: number;
}

/**
 * The backtest's PRs, each with its golden entry when the file names it: from a pairs file, from the
 * merge commits of the history, or — with neither — from the golden file's own PR keys, found in the clone
 * (resolvePrKey). With a golden file, PRs it does not name are left out (nothing to score them against).
 * A PR named by the URL of a repository the clone's remotes do not name is skipped (its number would find
 * another PR of the clone), unless `acceptOtherRepos`; a golden entry and a PR are the same only when
 * their repositories are (or one does not say). `missing` says which named PRs the clone does not have.
 */
export async function findBacktestPrs(git: CloneGit, source: PrSource): Promise<FoundPrs> {
  const otherRepository: string[] = [];
  const cloneRepos = source.cloneRepos ?? [];
  /** Whether a key names another repository than the clone's (and that is not accepted): then it is skipped, with why. */
  const elsewhere = (key: PrKey | undefined): boolean => {
    if (!key?.repo || source.acceptOtherRepos || cloneRepos.length === 0) return false;
    if (cloneRepos.some((r) => sameRepository(r, key.repo))) return false;
    const line = `${key.text}: a pull request of ${key.repo}, and the clone's remotes are ${cloneRepos.join(", ")} (--accept-other-repos looks it up by number all the same)`;
    if (!otherRepository.includes(line)) otherRepository.push(line);
    return true;
  };
  // Golden entries of another repository are left out first, each with its line: none can be this clone's PR.
  // Then those the file flags: scored, they would count its doubts as the reviewer's misses.
  const flagged: string[] = [];
  const golden = source.golden?.filter((g) => {
    if (elsewhere(g.key)) return false;
    if (g.flag) flagged.push(`${g.key.text}: "${g.flag}"`);
    return !g.flag;
  });
  const { found, missing } = await resolvePrs(git, source, golden, elsewhere);
  const goldenOf = await goldenLookup(git, source.branch, golden);
  const { prs, withoutGolden } = await backtestPrs(git, source, found, goldenOf);
  return { prs, missing, otherRepository, flagged, withoutGolden };
}

/** A PR found in the clone, with the repository its key names and its golden entry when that is already known. */
type FoundPr = MergedPr & { repo?: string; golden?: GoldenPr };

/** The PRs the pairs file, the merges or the golden file's keys name, resolved in the clone; `missing` those it does not have. */
async function resolvePrs(
  git: CloneGit,
  source: PrSource,
  golden: GoldenPr[] | undefined,
  elsewhere: (key: PrKey | undefined) => boolean,
): Promise<{ found: FoundPr[]; missing: string[] }> {
  const missing: string[] = [];
  const found: FoundPr[] = [];
  const allMerges = source.pairs
    ? []
    : await listMergedPrs(git, source.branch, source.merges ? source.limit : undefined);
  if (source.pairs) {
    for (const pair of source.pairs) {
      if (elsewhere(pair.key)) continue;
      const r = await resolvePrKey(
        git,
        { text: `${pair.base}..${pair.head}`, base: pair.base, head: pair.head },
        source.branch,
        [],
      );
      if ("missing" in r) missing.push(r.missing);
      else found.push({ ...r.pr, number: pair.key?.number, repo: pair.key?.repo, title: pair.title ?? r.pr.title });
    }
  } else if (source.merges) {
    found.push(...allMerges);
  } else if (golden) {
    for (const g of golden) {
      const r = await resolvePrKey(git, g.key, source.branch, allMerges);
      if ("missing" in r) missing.push(r.missing);
      else found.push({ ...r.pr, number: g.key.number ?? r.pr.number, title: g.title ?? r.pr.title, golden: g });
    }
  } else {
    throw new Error("name the pull requests: --merges, --pairs <file> or --golden <file>");
  }
  return { found, missing };
}

/** A found PR's golden entry: by the commits an entry named by commits resolves to, else by number and repository. */
async function goldenLookup(
  git: CloneGit,
  branch: string,
  golden: GoldenPr[] | undefined,
): Promise<(m: FoundPr) => GoldenPr | undefined> {
  // Golden entries named by commits are compared by the commits they resolve to.
  const byRange = new Map<string, GoldenPr>();
  for (const g of golden ?? []) {
    if (!g.key.base || !g.key.head) continue;
    const r = await resolvePrKey(git, g.key, branch, []);
    if ("pr" in r) byRange.set(`${r.pr.baseSha}..${r.pr.headSha}`, g);
  }
  return (m) =>
    byRange.get(`${m.baseSha}..${m.headSha}`) ??
    (m.number === undefined
      ? undefined
      : golden?.find((g) => g.key.number === m.number && sameRepository(m.repo, g.key.repo)));
}

/** Each found PR once, with its golden entry and the pushes to replay; with a golden file, those it does not name are counted and left out. */
async function backtestPrs(
  git: CloneGit,
  source: PrSource,
  found: readonly FoundPr[],
  goldenOf: (m: FoundPr) => GoldenPr | undefined,
): Promise<{ prs: BacktestPr[]; withoutGolden: number }> {
  const prs: BacktestPr[] = [];
  const seen = new Set<string>();
  let withoutGolden = 0;
  for (const m of found) {
    const entry = m.golden ?? goldenOf(m);
    if (source.golden && !entry) {
      withoutGolden++;
      continue;
    }
    const { id, number } = prId(m.baseSha, m.headSha, m.number);
    if (seen.has(id)) continue;
    seen.add(id);
    const pushes = await replayPushes(git, m.baseSha, m.headSha, { replay: source.replay, max: source.maxPushes });
    prs.push({
      id,
      number,
      title: m.title,
      baseSha: m.baseSha,
      headSha: m.headSha,
      pushes,
      ...(entry ? { golden: entry } : {}),
    });
  }
  return { prs, withoutGolden };
}

/** Two `owner/repo` names of one repository (GitHub's are case-insensitive); one not said counts as the same. */
function sameRepository(a: string | undefined, b: string | undefined): boolean {
  return a === undefined || b === undefined || a.toLowerCase() === b.toLowerCase();
}
