import { join } from "node:path";
import type { Logger } from "pino";
import { REPO_CONFIG_PATH } from "../config/repo-config.js";
import type { DatabaseHandle } from "../db/database.js";
import type { BacktestIo } from "./backtest-io.js";
import type { BacktestOptions } from "./cli/backtest-options.js";
import type { BacktestPr } from "./prs/backtest-pr.js";
import type { BacktestState } from "./replay/backtest-state.js";
import type { CloneGit } from "./clone/clone-git.js";
import { findingText, issueText } from "./score/finding-text.js";
import { format } from "./format.js";
import type { Judge } from "./judge/judge.js";
import { matchPr, type Matcher } from "./score/match-pr.js";
import type { PreparedConfiguration } from "./configurations/prepared-configuration.js";
import type { PrReviewResult } from "./replay/pr-review-result.js";
import { readCloneFile } from "./clone/read-clone-file.js";
import { ReviewFailedError } from "./replay/review-failed-error.js";
import { reviewPr, type ReviewPrDeps } from "./replay/review-pr.js";
import { scorePr } from "./score/score-pr.js";
import type { ScoredPr } from "./score/scored-pr.js";
import type { StageRepository } from "./clone/stage-repository.js";

/** Each configuration's scored PRs (by PR id), its failed reviews, and why the backtest stopped early, if it did. */
export interface ReviewedPrs {
  results: Map<string, Map<string, ScoredPr & { findings: PrReviewResult["findings"] }>>;
  failures: Map<string, { prId: string; error: string }[]>;
  stopped?: string;
}

const INTERRUPTED =
  "Interrupted: the report covers what finished; rerun the same command to resume (finished PRs are not reviewed again).";

/**
 * Every PR reviewed by every configuration (all configurations on a PR before the next PR: a stop leaves
 * them even), each result stored as it finishes and matched to the PR's real issues. A PR the state holds
 * (reviewed at the same commits) is not reviewed again. The spend so far (reviews and judge) is checked
 * against the cap before each paid step: a review (and the judging that follows it), or the judging of a
 * stored review that asks the judge anything not in its cache — judging from the cache alone is free and
 * goes on. An abort stops the review in progress; a failed review is reported and left for a rerun.
 */
export async function reviewEachPr(ctx: {
  prs: BacktestPr[];
  configurations: PreparedConfiguration[];
  state: BacktestState;
  matcher?: Matcher;
  judge?: Judge;
  options: BacktestOptions;
  io: BacktestIo;
  signal: AbortSignal;
  log: Logger;
  database: DatabaseHandle;
  stage: StageRepository;
  repoName: string;
  git: CloneGit;
}): Promise<ReviewedPrs> {
  const { prs, configurations, state, matcher, judge, options, io, signal } = ctx;
  const results = new Map<string, Map<string, ScoredPr & { findings: PrReviewResult["findings"] }>>();
  const failures = new Map<string, { prId: string; error: string }[]>(configurations.map((c) => [c.label, []]));
  for (const c of configurations) results.set(c.label, new Map());
  let stopped: string | undefined;
  const reviewedHere: number[] = [];
  const total = prs.length * configurations.length;
  let done = 0;
  const capReached = () => options.maxSpendUsd !== undefined && state.spentUsd() >= options.maxSpendUsd;
  outer: for (const pr of prs) {
    for (const c of configurations) {
      let result = state.result(c.label, pr.id);
      if (result && !sameCommits(result, pr)) {
        io.progress(`${c.label} ${pr.id}: its commits are not those of the stored review; reviewed again`);
        result = undefined;
      }
      if (!result) {
        if (capReached()) {
          stopped = spendCapLine(state.spentUsd(), options.maxSpendUsd!, total - done);
          break outer;
        }
        try {
          result = await reviewPr(reviewDeps(ctx, c), pr, signal);
        } catch (error) {
          if (signal.aborted) {
            stopped = INTERRUPTED;
            break outer;
          }
          if (!(error instanceof ReviewFailedError)) throw error;
          failures.get(c.label)!.push({ prId: pr.id, error: `review failed: ${error.message}` });
          io.progress(`${c.label} ${pr.id}: review failed (${error.message}); a rerun tries it again`);
          done++;
          continue;
        }
        await state.record(c.label, result);
        reviewedHere.push(result.wallMs);
      } else if (matcher?.kind === "judge" && pr.golden && capReached() && judgeMustAsk(matcher.judge, result, pr)) {
        // A stored review whose judging is not all cached (a rerun, another judge): paid work, within the cap too.
        stopped = spendCapLine(state.spentUsd(), options.maxSpendUsd!, total - done);
        break outer;
      }
      const judgedBefore = judge?.spentUsd ?? 0;
      let matched: Awaited<ReturnType<typeof matchPr>>;
      try {
        matched =
          matcher && pr.golden
            ? await matchPr(raisedOf(result), pr.golden.issues, matcher)
            : { matches: [], judgeCostUsd: 0 };
      } catch (error) {
        if (signal.aborted) {
          stopped = INTERRUPTED;
          break outer;
        }
        // The review is kept; the PR is left unscored, and a rerun asks only the questions not yet answered.
        const message = `judging failed: ${(error as Error).message}`;
        failures.get(c.label)!.push({ prId: pr.id, error: message });
        io.progress(`${c.label} ${pr.id}: ${message}; a rerun judges it again (answers so far are cached)`);
        done++;
        continue;
      } finally {
        await state.addJudgeSpend((judge?.spentUsd ?? 0) - judgedBefore);
      }
      const { matches, judgeCostUsd } = matched;
      results
        .get(c.label)!
        .set(pr.id, { ...scorePr(result, pr.golden?.issues, matches, judgeCostUsd), findings: result.findings });
      done++;
      io.progress(progressLine(done, total, pr, c.label, result, state.spentUsd(), options.maxSpendUsd, reviewedHere));
      if (signal.aborted) {
        stopped = INTERRUPTED;
        break outer;
      }
    }
  }

  return { results, failures, ...(stopped ? { stopped } : {}) };
}

/** Whether a stored review is of the PR's commits as found now (a pairs file edited, a PR ref fetched since, another branch checked out). */
function sameCommits(result: PrReviewResult, pr: BacktestPr): boolean {
  return result.baseSha === pr.baseSha && result.heads.join(" ") === pr.pushes.join(" ");
}

/** Whether judging a stored review asks the judge anything (some question is not in its cache). */
function judgeMustAsk(judge: Judge, result: PrReviewResult, pr: BacktestPr): boolean {
  const issues = pr.golden?.issues ?? [];
  return raisedOf(result).some((f) => issues.some((issue) => !judge.knows(findingText(f), issueText(issue))));
}

function spendCapLine(spent: number, cap: number, left: number): string {
  return `Spend cap reached: ${format.usd(spent)} spent of the ${format.usd(cap)} allowed (--max-spend); ${left} review${left === 1 ? "" : "s"} not finished. The report covers what finished; rerun with a higher --max-spend to go on.`;
}

/** What a PR's review raised (posted inline or in the body): notes were never posted, so they are neither matched nor scored. */
function raisedOf(result: PrReviewResult): PrReviewResult["findings"] {
  return result.findings.filter((f) => f.placement !== "note");
}

function reviewDeps(
  ctx: {
    database: DatabaseHandle;
    log: Logger;
    stage: StageRepository;
    repoName: string;
    git: CloneGit;
    options: BacktestOptions;
    state: BacktestState;
  },
  c: PreparedConfiguration,
): ReviewPrDeps {
  const { database, log, stage, git, state } = ctx;
  const branch = ctx.options.branch;
  return {
    db: database.db,
    sessions: c.sessions,
    log: log.child({ configuration: c.label }),
    stage,
    repositoryId: c.repositoryId,
    repositoryFullName: ctx.repoName,
    workspaceDir: (n: number) => join(c.dataDir, "workspaces", String(n)),
    readDefaultBranchFile: async (path: string) =>
      path === REPO_CONFIG_PATH ? c.configText : readCloneFile(git, branch, path),
    agentTimeoutMs: c.env.agent.timeoutMs,
    workspaceMaxBytes: c.env.workspaceMaxBytes,
    ...(c.checks ? { checks: c.checks } : {}),
    countSpend: (usd: number) => state.addUnfinishedSpend(usd),
  };
}

function progressLine(
  done: number,
  total: number,
  pr: BacktestPr,
  label: string,
  result: PrReviewResult,
  spent: number,
  cap: number | undefined,
  reviewedHere: readonly number[],
): string {
  const mean = reviewedHere.length === 0 ? undefined : reviewedHere.reduce((s, v) => s + v, 0) / reviewedHere.length;
  const left = mean === undefined || done === total ? "" : ` · ~${format.duration(mean * (total - done))} left`;
  const raised = result.findings.filter((f) => f.placement !== "note").length;
  return `[${done}/${total}] ${pr.id} ${label}: ${result.skipped ? `skipped (${result.skipped})` : `${raised} finding${raised === 1 ? "" : "s"}, ${format.usd(result.costUsd)}, ${format.seconds(result.wallMs)}`} · spent ${format.usd(spent)}${cap === undefined ? "" : ` of ${format.usd(cap)}`}${left}`;
}
