// The job entry: a run's queue job starts here (processRun) and runs its commands (run-command), the
// review and auto-fix in order; a failure is reported once (report-job-failure), and every GitHub call the
// job makes is watched for auth failures (watch-github). It may import every room below.

import { finishRunCommand, listPendingCommands } from "../db/run-commands.js";
import { getRun } from "../db/runs.js";
import { listFindings } from "../db/findings.js";
import { listTurns } from "../db/turns.js";
import type { RunJob } from "../domain/run-job.js";
import type { JobAttempt } from "../domain/job-attempt.js";
import { budgetRefusal, spendOf } from "./sessions/check-budget.js";
import type { Logger } from "pino";
import type { GitHubError } from "../github/github-error.js";
import {
  asGitHubError,
  classifyFailure,
  describeAuthFailure,
  reportAuthFailure,
  type AuthFailure,
  type FailureDecision,
} from "./job/classify-failure.js";
import { ensureCheckRun } from "./publish/ensure-check-run.js";
import { reportJobFailure } from "./report-job-failure.js";
import { watchGitHub } from "./watch-github.js";
import { confirmByReactions } from "./conversation/confirm-by-reactions.js";
import { codeBlock } from "../text/code-block.js";
import { repoRef } from "./job/repo-ref.js";
import { loadRunContext } from "./job/run-context.js";
import { runFix } from "./fix/run-fix.js";
import { runReview } from "./review/run-review.js";
import { runCommand } from "./run-command.js";
import type { PipelineDeps } from "./job/pipeline-deps.js";

/**
 * One job of a run (never two at once): 1. the commands asked for in the PR, in order (fix, review,
 * questions and replies in findings' threads; rulings a writer confirmed with a 👍 first);
 * 2. the automatic review of the newest head; 3. an automatic fix when the repository opted in.
 */
export async function processRun(
  deps: PipelineDeps,
  job: RunJob,
  signal: AbortSignal,
  attempt: JobAttempt,
): Promise<void> {
  const log = deps.log.child({ runId: job.runId, deliveryId: job.deliveryId });
  // GitHub refusing the App (401/403) is reported once, at error, with what the operator must do, and
  // the job is not retried: asking again with the same key or permissions cannot succeed.
  let refused: { error: GitHubError; auth: AuthFailure } | undefined;
  const noteFailure = (error: unknown) => {
    const github = refused ? undefined : asGitHubError(error);
    const auth = github && describeAuthFailure(github);
    if (github && auth) refused = { error: github, auth };
  };
  const watched: PipelineDeps = { ...deps, github: watchGitHub(deps.github, noteFailure) };
  try {
    await processRunSteps(watched, job, signal, attempt, log);
  } catch (error) {
    const decision = classifyFailure(error);
    if (!decision.auth) {
      // A job stopped with the process is handed back to the queue, not failed (RunQueue.stop).
      if (!(signal.reason as { interrupted?: boolean } | undefined)?.interrupted)
        reportJobFailure(log, error, decision, attempt);
      throw error;
    }
    noteFailure(error);
    await showOnCheckRun(deps, job, decision, log);
  } finally {
    if (refused) reportAuthFailure(log, refused.error, refused.auth);
  }
}

/** Best effort: the failure on the head's check run (not tried when the App's credentials are refused: nothing can be written). */
async function showOnCheckRun(deps: PipelineDeps, job: RunJob, decision: FailureDecision, log: Logger): Promise<void> {
  if (decision.auth?.problem === "credentials") return;
  try {
    const run = await getRun(deps.db, job.runId);
    if (!run || run.state === "closed") return;
    const github = await deps.github(run.installationId);
    const ref = repoRef(run);
    const update = {
      status: "completed" as const,
      conclusion: "failure" as const,
      title: decision.title,
      summary: `The review could not be completed.\n\n${codeBlock(decision.detail)}`,
    };
    await ensureCheckRun(github, ref, run.headSha, update);
  } catch (error) {
    log.debug({ err: error }, "could not show the failure on the check run");
  }
}

async function processRunSteps(
  deps: PipelineDeps,
  job: RunJob,
  signal: AbortSignal,
  attempt: JobAttempt,
  log: Logger,
): Promise<void> {
  const ctx = await loadRunContext(deps, job.runId);
  const pendings = await listPendingCommands(deps.db, job.runId);
  if (!ctx) {
    // closed (or gone): what was asked of it is not done, and nothing is reviewed
    for (const pending of pendings) await finishRunCommand(deps.db, pending.id, "done");
    log.info({ skippedCommands: pendings.length }, "run closed; nothing to do");
    return;
  }

  // 1. Commands.
  await confirmByReactions(deps, ctx);
  for (const pending of pendings) await runCommand(deps, ctx, job, pending, signal, attempt, log);

  // 2. The automatic review (a command-only job reviews only if the head moved meanwhile).
  const reviewed = await runReview(
    deps,
    ctx,
    job.trigger === "command" ? { ...job, trigger: "synchronize" } : job,
    signal,
    attempt,
  );

  // 3. fix.auto: the fixer takes the auto-fix findings, within fix.max_rounds and the budget.
  if (!reviewed || !ctx.config.fix.auto) return;
  const findings = await listFindings(deps.db, job.runId);
  if (!findings.some((f) => f.status === "open" && f.action === "auto-fix")) return;
  if (budgetRefusal(spendOf(await listTurns(deps.db, job.runId)), ctx.config, "fixer")) return;
  await runFix(deps, ctx, { trigger: "auto-fix", findings: "auto-fix" }, signal);
}
