import type { BacktestPr } from "./backtest-pr.js";
import type { CloneGit } from "./clone-git.js";
import type { GoldenPr } from "./golden-pr.js";
import { listMergedPrs, type MergedPr } from "./list-merged-prs.js";
import type { PrPair } from "./parse-pairs-file.js";
import { prId } from "./pr-id.js";
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
}

/**
 * The backtest's PRs, each with its golden entry when the file names it: from a pairs file, from the
 * merge commits of the history, or — with neither — from the golden file's own PR keys, found in the clone
 * (resolvePrKey). With a golden file, PRs it does not name are left out (nothing to score them against).
 * `missing` says which named PRs the clone does not have.
 */
export async function findBacktestPrs(
  git: CloneGit,
  source: PrSource,
): Promise<{ prs: BacktestPr[]; missing: string[]; withoutGolden: number }> {
  const missing: string[] = [];
  const found: (MergedPr & { golden?: GoldenPr })[] = [];
  const allMerges = source.pairs
    ? []
    : await listMergedPrs(git, source.branch, source.merges ? source.limit : undefined);
  if (source.pairs) {
    for (const pair of source.pairs) {
      const r = await resolvePrKey(
        git,
        { text: `${pair.base}..${pair.head}`, base: pair.base, head: pair.head },
        source.branch,
        [],
      );
      if ("missing" in r) missing.push(r.missing);
      else found.push({ ...r.pr, number: pair.key?.number, title: pair.title ?? r.pr.title });
    }
  } else if (source.merges) {
    found.push(...allMerges);
  } else if (source.golden) {
    for (const g of source.golden) {
      const r = await resolvePrKey(git, g.key, source.branch, allMerges);
      if ("missing" in r) missing.push(r.missing);
      else found.push({ ...r.pr, number: g.key.number ?? r.pr.number, title: g.title ?? r.pr.title, golden: g });
    }
  } else {
    throw new Error("name the pull requests: --merges, --pairs <file> or --golden <file>");
  }

  // Golden entries named by commits are compared by the commits they resolve to.
  const byRange = new Map<string, GoldenPr>();
  for (const g of source.golden ?? []) {
    if (!g.key.base || !g.key.head) continue;
    const r = await resolvePrKey(git, g.key, source.branch, []);
    if ("pr" in r) byRange.set(`${r.pr.baseSha}..${r.pr.headSha}`, g);
  }
  const goldenOf = (m: MergedPr) =>
    byRange.get(`${m.baseSha}..${m.headSha}`) ??
    (m.number === undefined ? undefined : source.golden?.find((g) => g.key.number === m.number));

  const prs: BacktestPr[] = [];
  const seen = new Set<string>();
  let withoutGolden = 0;
  for (const m of found) {
    const golden = m.golden ?? goldenOf(m);
    if (source.golden && !golden) {
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
      ...(golden ? { golden } : {}),
    });
  }
  return { prs, missing, withoutGolden };
}
