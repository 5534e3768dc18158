import { basename } from "node:path";
import { openDatabase } from "../db/open-database.js";
import type { BacktestIo } from "./backtest-io.js";
import type { BacktestOptions } from "./cli/backtest-options.js";
import { cloneGit, type CloneGit } from "./clone/clone-git.js";
import { cloneRepositories } from "./clone/clone-repositories.js";
import { findBacktestPrs, type FoundPrs } from "./prs/find-backtest-prs.js";
import { goldenFromHistory } from "./prs/golden-from-history.js";
import type { GoldenPr } from "./prs/golden-pr.js";
import { goldenRepositoriesLine } from "./prs/golden-repositories-line.js";
import { parseGoldenFile } from "./prs/parse-golden-file.js";
import { parsePairsFile } from "./prs/parse-pairs-file.js";
import { pathlessIssuesWarning } from "./prs/pathless-issues-warning.js";
import { readJsonFile } from "./prs/read-json-file.js";
import { unknownRepositoryWarning } from "./prs/unknown-repository-warning.js";

/** The backtest's PRs, what was left out and why, the warnings said on the way, and the clone they come from. */
export interface GatheredPrs extends FoundPrs {
  git: CloneGit;
  /** The golden file (or the app's history as one): undefined when nothing scores the reviews. */
  golden?: GoldenPr[];
  /** `owner/repo` the runs carry. */
  repoName: string;
  warnings: string[];
}

/**
 * The PRs (golden file, pairs file or merges) found in the clone `repo`, each PR left out said on the
 * way; none left to backtest stops here, saying why.
 */
export async function gatherPrs(options: BacktestOptions, io: BacktestIo, repo: string): Promise<GatheredPrs> {
  // a golden or pairs file that is not JSON is said before anything else runs
  const goldenFile = options.golden ? parseGoldenFile(await readJsonFile(options.golden), options.golden) : undefined;
  const pairs = options.pairs ? parsePairsFile(await readJsonFile(options.pairs), options.pairs) : undefined;
  const git = cloneGit(repo);
  const cloneRepos = await cloneRepositories(git);
  const golden =
    goldenFile ??
    (options.fromHistory
      ? await readHistory(options.fromHistory, options.repoName ?? cloneRepos[0], options.limit, io)
      : undefined);
  const warnings: string[] = [];
  const warn = (line: string | undefined) => {
    if (!line) return;
    warnings.push(line);
    io.progress(line);
  };
  if (golden) warn(goldenRepositoriesLine(golden, cloneRepos, options.acceptOtherRepos));
  warn(
    unknownRepositoryWarning(
      [...(golden ?? []).map((g) => g.key), ...(pairs ?? []).map((p) => p.key)],
      cloneRepos,
      options.acceptOtherRepos,
    ),
  );
  const found = await findBacktestPrs(git, {
    golden,
    pairs,
    merges: options.merges,
    branch: options.branch,
    limit: options.limit,
    replay: options.replay,
    maxPushes: options.maxPushes,
    cloneRepos,
    acceptOtherRepos: options.acceptOtherRepos,
  });
  const { prs, otherRepository, flagged } = found;
  for (const o of otherRepository) io.progress(`skipped, another repository's: ${o}`);
  for (const f of flagged) io.progress(`skipped, flagged in the golden file: ${f}`);
  const left = [...found.missing, ...otherRepository, ...flagged.map((f) => `flagged in the golden file: ${f}`)];
  if (prs.length === 0) throw new Error(`no pull request to backtest${left.length ? `:\n  ${left.join("\n  ")}` : ""}`);
  const repoName =
    options.repoName ??
    prs.find((p) => p.golden?.key.repo)?.golden?.key.repo ??
    cloneRepos[0] ??
    `backtest/${basename(repo)}`;
  if (golden && options.matching === "location") warn(pathlessIssuesWarning(prs));
  return { ...found, git, golden, repoName, warnings };
}

/** The app's own outcomes of `repository`'s merged PRs as the golden file (`--from-history`). */
async function readHistory(
  from: NonNullable<BacktestOptions["fromHistory"]>,
  repository: string | undefined,
  limit: number | undefined,
  io: BacktestIo,
): Promise<GoldenPr[]> {
  if (!repository)
    throw new Error("--from-history: name the repository (--repo-name owner/repo): the clone has no GitHub remote");
  const history = await openDatabase(from);
  try {
    const golden = await goldenFromHistory(history.db, repository, limit).catch((error: unknown) => {
      // a database the app has not migrated since findings got their outcomes
      if (/outcome/.test((error as Error).message))
        throw new Error(
          `--from-history: the app's database has no finding outcomes yet; start this version of the app on it once (it migrates): ${(error as Error).message}`,
          { cause: error },
        );
      throw error;
    });
    const issues = golden.reduce((n, pr) => n + pr.issues.length, 0);
    io.progress(
      `golden file from history: ${golden.length} merged PR${golden.length === 1 ? "" : "s"} of ${repository} with decided findings, ${issues} fixed (real issues)`,
    );
    return golden;
  } finally {
    await history.close();
  }
}
