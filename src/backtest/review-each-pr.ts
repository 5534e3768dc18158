import { join } from "node:path";
import { REPO_CONFIG_PATH } from "../config/repo/repo-config.js";
import type { BacktestRun } from "./backtest-run.js";
import type { BacktestPr } from "./prs/backtest-pr.js";
import { findingText, issueText } from "./score/finding-text.js";
import { format } from "./format.js";
import type { Judge } from "./judge/judge.js";
import { matchPr } from "./score/match-pr.js";
import type { PreparedConfiguration } from "./configurations/prepared-configuration.js";
import type { PrReviewResult } from "./replay/pr-review-result.js";
import { readCloneFile } from "./clone/read-clone-file.js";
import { ReviewFailedError } from "./replay/review-failed-error.js";
import { reviewPr, type ReviewPrDeps } from "./replay/review-pr.js";
import { scorePr } from "./score/score-pr.js";
import type { ScoredPr } from "./score/scored-pr.js";

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
export async function reviewEachPr(run: BacktestRun): Promise<ReviewedPrs> {
  const { prs, configurations } = run;
  const loop: Loop = {
    run,
    results: new Map(configurations.map((c) => [c.label, new Map()] as const)),
    failures: new Map(configurations.map((c) => [c.label, []] as const)),
    reviewedHere: [],
    total: prs.length * configurations.length,
    done: 0,
  };
  // All configurations on a PR before the next PR.
  for (const pr of prs) {
    for (const c of configurations) {
      const stopped = await reviewAndScore(loop, pr, c);
      if (stopped) return { results: loop.results, failures: loop.failures, stopped };
    }
  }
  return { results: loop.results, failures: loop.failures };
}

/** The loop's tally: the run, what it has finished and failed so far, and the reviews it made itself (for the time left). */
interface Loop {
  run: BacktestRun;
  results: ReviewedPrs["results"];
  failures: ReviewedPrs["failures"];
  reviewedHere: number[];
  total: number;
  done: number;
}

/** A step's outcome: its value, the backtest stopped (why), or the PR failed for this configuration (already told). */
type Step<T> = { value: T } | { stopped: string } | { failed: true };

/** One PR by one configuration: reviewed (or its stored review), matched, scored and told; why the loop stops, if it does. */
async function reviewAndScore(loop: Loop, pr: BacktestPr, c: PreparedConfiguration): Promise<string | undefined> {
  const { io, signal, state, options } = loop.run;
  const reviewed = await storedOrReviewed(loop, pr, c);
  if ("stopped" in reviewed) return reviewed.stopped;
  if ("failed" in reviewed) return undefined;
  const result = reviewed.value;
  const matched = await matchFindings(loop, pr, c, result);
  if ("stopped" in matched) return matched.stopped;
  if ("failed" in matched) return undefined;
  const { matches, judgeCostUsd } = matched.value;
  loop.results
    .get(c.label)!
    .set(pr.id, { ...scorePr(result, pr.golden?.issues, matches, judgeCostUsd), findings: result.findings });
  loop.done++;
  io.progress(
    progressLine(loop.done, loop.total, pr, c.label, result, state.spentUsd(), options.maxSpendUsd, loop.reviewedHere),
  );
  return signal.aborted ? INTERRUPTED : undefined;
}

/**
 * The PR's stored review when it is of the same commits, else a new one, stored as it finishes. The spend
 * cap is checked before the review, and before a stored review whose judging asks the judge anything.
 */
async function storedOrReviewed(loop: Loop, pr: BacktestPr, c: PreparedConfiguration): Promise<Step<PrReviewResult>> {
  const { state, matcher, options, io, signal } = loop.run;
  const capReached = () => options.maxSpendUsd !== undefined && state.spentUsd() >= options.maxSpendUsd;
  const capLine = () => spendCapLine(state.spentUsd(), options.maxSpendUsd!, loop.total - loop.done);
  let result = state.result(c.label, pr.id);
  if (result && !sameCommits(result, pr)) {
    io.progress(`${c.label} ${pr.id}: its commits are not those of the stored review; reviewed again`);
    result = undefined;
  }
  if (result) {
    // A stored review whose judging is not all cached (a rerun, another judge): paid work, within the cap too.
    if (matcher?.kind === "judge" && pr.golden && capReached() && judgeMustAsk(matcher.judge, result, pr))
      return { stopped: capLine() };
    return { value: result };
  }
  if (capReached()) return { stopped: capLine() };
  try {
    result = await reviewPr(reviewDeps(loop.run, c), pr, signal);
  } catch (error) {
    if (signal.aborted) return { stopped: INTERRUPTED };
    if (!(error instanceof ReviewFailedError)) throw error;
    failed(loop, pr, c, `review failed: ${error.message}`, `review failed (${error.message}); a rerun tries it again`);
    return { failed: true };
  }
  await state.record(c.label, result);
  loop.reviewedHere.push(result.wallMs);
  return { value: result };
}

/** The review's raised findings matched to the PR's real issues (none without a golden entry); what the judge spent is stored, whatever happens. */
async function matchFindings(
  loop: Loop,
  pr: BacktestPr,
  c: PreparedConfiguration,
  result: PrReviewResult,
): Promise<Step<Awaited<ReturnType<typeof matchPr>>>> {
  const { matcher, judge, state, signal } = loop.run;
  const judgedBefore = judge?.spentUsd ?? 0;
  try {
    return {
      value:
        matcher && pr.golden
          ? await matchPr(raisedOf(result), pr.golden.issues, matcher)
          : { matches: [], judgeCostUsd: 0 },
    };
  } catch (error) {
    if (signal.aborted) return { stopped: INTERRUPTED };
    // The review is kept; the PR is left unscored, and a rerun asks only the questions not yet answered.
    const message = `judging failed: ${(error as Error).message}`;
    failed(loop, pr, c, message, `${message}; a rerun judges it again (answers so far are cached)`);
    return { failed: true };
  } finally {
    await state.addJudgeSpend((judge?.spentUsd ?? 0) - judgedBefore);
  }
}

/** A PR this configuration could not finish: reported, told, and counted as done (a rerun tries it again). */
function failed(loop: Loop, pr: BacktestPr, c: PreparedConfiguration, error: string, told: string): void {
  loop.failures.get(c.label)!.push({ prId: pr.id, error });
  loop.run.io.progress(`${c.label} ${pr.id}: ${told}`);
  loop.done++;
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

function reviewDeps(run: BacktestRun, c: PreparedConfiguration): ReviewPrDeps {
  const { database, log, stage, git, state } = run;
  const branch = run.options.branch;
  return {
    db: database.db,
    sessions: c.sessions,
    log: log.child({ configuration: c.label }),
    stage,
    repositoryId: c.repositoryId,
    repositoryFullName: run.repoName,
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
