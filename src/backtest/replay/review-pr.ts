// The backtest's replay room: one PR reviewed by one configuration through the app's own review job (reviewPr,
// this file), GitHub's side recorded instead of posted (RecordingGitHubClient), the findings the ledger kept,
// and the results stored as they finish (BacktestState) so that a rerun resumes. It imports the clone and prs rooms.

import { loadRunContext, runReview, type PipelineDeps, type RunSessions } from "../../pipeline/index.js";
import { and, eq } from "drizzle-orm";
import type { Logger } from "pino";
import type { Database } from "../../db/database.js";
import type { Checks } from "../../checks/index.js";
import { listFindings } from "../../db/findings.js";
import { getRun, upsertRun } from "../../db/runs.js";
import { runs } from "../../db/schema.js";
import { listTurns } from "../../db/turns.js";
import type { PullRequestInfo } from "../../domain/pull-request.js";
import { GitWorkspace } from "../../git/git-workspace.js";
import { Refusals } from "../../refusals/refusals.js";
import type { BacktestPr } from "../prs/backtest-pr.js";
import type { PrReviewResult } from "./pr-review-result.js";
import { RecordingGitHubClient } from "./recording-github-client.js";
import { ledgerFinding } from "./ledger-finding.js";
import { ReviewFailedError } from "./review-failed-error.js";
import { StageRepository } from "../clone/stage-repository.js";

/** What reviewing a PR for one configuration needs: the app's own database, sessions and workspaces. */
export interface ReviewPrDeps {
  db: Database;
  sessions: RunSessions;
  log: Logger;
  stage: StageRepository;
  /** The configuration's repository id: its runs are its own, apart from another configuration's. */
  repositoryId: number;
  /** `owner/repo` the runs carry. */
  repositoryFullName: string;
  /** Where the configuration keeps this PR's workspace (stable: the agent's sessions are keyed by it). */
  workspaceDir: (prNumber: number) => string;
  /** A file of the repository's default branch (`.github/no-mistakes.yml`, or the configuration's own file instead). */
  readDefaultBranchFile: (path: string) => Promise<string | undefined>;
  agentTimeoutMs: number;
  workspaceMaxBytes?: number;
  /** Running the repository's own code (the reviewer's reproducers); absent: nothing of the PR runs. */
  checks?: Checks;
  /** Spend of reviews that did not finish (an earlier attempt cut off, a failed review): counted towards the cap. */
  countSpend: (usd: number) => Promise<void>;
}

/**
 * One PR reviewed exactly as the app does it: a run of its own (the app's tables), the head staged as
 * GitHub's `refs/pull/<n>/head`, each push (the first `opened`, every later one a `synchronize`) through
 * the pipeline's review job — the same prompts, session, convergence and ledger — with GitHub's side
 * recorded instead of posted. A run cut off is dropped (what its turns cost counted first), and so is one
 * an earlier process left behind: a PR starts clean.
 */
export async function reviewPr(deps: ReviewPrDeps, pr: BacktestPr, signal: AbortSignal): Promise<PrReviewResult> {
  const started = performance.now();
  const log = deps.log.child({ pr: pr.id });
  await dropRun(deps, pr.number);
  const [owner = "backtest", repo = "repo"] = deps.repositoryFullName.split("/");
  const at = { head: pr.pushes[0]! };
  const pull = () => pullRequest(deps, pr, at.head);
  const github = new RecordingGitHubClient({ owner, repo }, pull, deps.readDefaultBranchFile);
  const pipeline: PipelineDeps = {
    db: deps.db,
    sessions: deps.sessions,
    log,
    github: async () => github,
    workspace: () => new GitWorkspace(deps.workspaceDir(pr.number), { maxCheckoutBytes: deps.workspaceMaxBytes }),
    agentTimeoutMs: deps.agentTimeoutMs,
    gitToken: () => undefined,
    isOwnBot: async (login) => login === (await github.botIdentity()).login,
    refusals: new Refusals({ db: deps.db, log }),
    ...(deps.checks ? { checks: deps.checks } : {}),
  };
  let reviewed: Reviewed = {};
  try {
    for (const [i, sha] of pr.pushes.entries()) {
      if (signal.aborted) throw signal.reason;
      at.head = sha;
      reviewed = await reviewPush({ deps, pr, pipeline, github, log, signal }, i, pull());
      if (reviewed.skipped !== undefined) break;
    }
  } catch (error) {
    // Cut off: what its finished pushes cost is counted now, while this configuration's run is there to say.
    if (signal.aborted) await dropRun(deps, pr.number);
    throw error;
  }
  return resultOf(deps, pr, github, reviewed, started);
}

/** What the pushes reviewed so far left: the PR's run, and the app's reason when it skipped the PR. */
interface Reviewed {
  runId?: number;
  skipped?: string;
}

/** The PR as GitHub would show it at `head`: the stage repository's refs, opened by a user of the backtest's own. */
function pullRequest(deps: ReviewPrDeps, pr: BacktestPr, head: string): PullRequestInfo {
  return {
    number: pr.number,
    title: pr.title,
    body: "",
    authorLogin: "backtest-author",
    authorType: "User",
    state: "open",
    draft: false,
    baseRef: StageRepository.baseBranch(pr.number),
    baseSha: pr.baseSha,
    headRef: `backtest/head/${pr.number}`,
    headSha: head,
    headRepoFullName: deps.repositoryFullName,
    headCloneUrl: deps.stage.dir,
    maintainerCanModify: false,
    updatedAt: null,
    labels: [],
  };
}

/**
 * The push `i` (the first `opened`, every later one a `synchronize`) staged, lent to the workspace and
 * reviewed by the pipeline's review job on the PR's run. A head the app skipped ends the PR (`skipped`);
 * a failed check drops the run and throws ReviewFailedError.
 */
async function reviewPush(
  replay: {
    deps: ReviewPrDeps;
    pr: BacktestPr;
    pipeline: PipelineDeps;
    github: RecordingGitHubClient;
    log: Logger;
    signal: AbortSignal;
  },
  i: number,
  p: PullRequestInfo,
): Promise<Reviewed> {
  const { deps, pr, pipeline, signal } = replay;
  const sha = p.headSha;
  await deps.stage.stage(pr.number, pr.baseSha, sha);
  await deps.stage.lend(deps.workspaceDir(pr.number), [pr.baseSha, sha]);
  const run = await upsertRun(deps.db, {
    installationId: 1,
    repositoryId: deps.repositoryId,
    repositoryFullName: deps.repositoryFullName,
    cloneUrl: deps.stage.dir,
    prNumber: pr.number,
    baseRef: p.baseRef,
    baseSha: p.baseSha,
    headRef: p.headRef,
    headSha: sha,
    headRepoFullName: p.headRepoFullName,
    headCloneUrl: p.headCloneUrl,
    title: p.title,
    authorLogin: p.authorLogin,
  });
  const ctx = await loadRunContext(pipeline, run.id);
  if (!ctx) throw new ReviewFailedError(`the run of ${pr.id} is gone`);
  const trigger = i === 0 ? "opened" : "synchronize";
  const job = {
    runId: run.id,
    trigger,
    deliveryId: `backtest-${pr.id}-${i}`,
    senderLogin: p.authorLogin,
    senderType: "User",
  };
  const reviewed = await runReview(pipeline, ctx, job, signal, { retry: 0, last: true });
  if (signal.aborted) throw signal.reason;
  if (reviewed) return { runId: run.id };
  return { runId: run.id, ...(await unreviewedHead(replay, sha)) };
}

/**
 * A head the review job did not review, told by its check run: skipped by the app (the reason), or failed
 * (the run dropped, ReviewFailedError thrown); anything else goes on to the next push.
 */
async function unreviewedHead(
  { deps, pr, github, log }: { deps: ReviewPrDeps; pr: BacktestPr; github: RecordingGitHubClient; log: Logger },
  sha: string,
): Promise<{ skipped?: string }> {
  const check = github.checkRuns.findLast((c) => c.headSha === sha)?.update;
  // a skipped head may fail its check too (it was not reviewed): the skip is told apart by its title
  if (check?.title?.startsWith("Review skipped")) {
    const skipped = check.summary?.split("\n")[0] ?? "skipped";
    log.info({ headSha: sha, skipped }, "the app skipped this PR");
    return { skipped };
  }
  if (check?.conclusion === "failure") {
    await dropRun(deps, pr.number);
    throw new ReviewFailedError(
      `${pr.id} at ${sha.slice(0, 12)}: ${check.title ?? "the review failed"}: ${check.summary ?? ""}`.trim(),
    );
  }
  return {};
}

/** What the PR's review did: the ledger's findings with their placement, what GitHub was sent, and what its turns cost. */
async function resultOf(
  deps: ReviewPrDeps,
  pr: BacktestPr,
  github: RecordingGitHubClient,
  { runId, skipped }: Reviewed,
  started: number,
): Promise<PrReviewResult> {
  const ledger = runId === undefined ? [] : await listFindings(deps.db, runId);
  const turns = runId === undefined ? [] : await listTurns(deps.db, runId);
  const lastRun = runId === undefined ? undefined : await getRun(deps.db, runId);
  const inline = new Map(github.reviews.flatMap((r) => r.comments.map((c) => [c.id, c] as const)));
  return {
    prId: pr.id,
    pushes: pr.pushes.length,
    baseSha: pr.baseSha,
    heads: [...pr.pushes],
    reviews: github.reviews.length,
    findings: ledger.map((f) => ledgerFinding(f, inline)),
    conclusion: github.checkRuns.findLast((c) => c.headSha === lastRun?.headSha)?.update.conclusion,
    ...(skipped ? { skipped } : {}),
    turns: turns.length,
    tokensIn: turns.reduce((s, t) => s + (t.tokensIn ?? 0), 0),
    tokensOut: turns.reduce((s, t) => s + (t.tokensOut ?? 0), 0),
    costUsd: turns.reduce((s, t) => s + Number(t.costUsd ?? 0), 0),
    wallMs: Math.round(performance.now() - started),
  };
}

/** Drops the PR's run (an earlier attempt, cut off or failed), counting what its turns spent first: nothing is paid for silently. */
async function dropRun(deps: ReviewPrDeps, prNumber: number): Promise<void> {
  const where = and(eq(runs.repositoryId, deps.repositoryId), eq(runs.prNumber, prNumber));
  const [earlier] = await deps.db.select({ id: runs.id }).from(runs).where(where);
  if (!earlier) return;
  const spent = (await listTurns(deps.db, earlier.id)).reduce((s, t) => s + Number(t.costUsd ?? 0), 0);
  await deps.countSpend(spent);
  await deps.db.delete(runs).where(where);
}
