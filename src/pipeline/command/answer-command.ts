import { asGitHubError, classifyFailure, describeAuthFailure, reportAuthFailure } from "../job/classify-failure.js";
import type { CommandJob } from "../../domain/command-job.js";
import type { JobAttempt } from "../../domain/job-attempt.js";
import type { CommandDeps } from "./command-deps.js";
import { handleCommand } from "./handle-command.js";

/**
 * One command job, its failure decided in one place: GitHub refusing the App (401/403: a revoked key, a
 * suspended installation, a missing permission) is logged once at error with what the operator must do
 * and not retried — the same credentials cannot succeed on the next try; a failure that cannot pass by
 * itself is logged and dropped; a transient one is retried by the queue (and logged on its last try).
 */
export async function answerCommand(deps: CommandDeps, job: CommandJob, attempt: JobAttempt): Promise<void> {
  try {
    await handleCommand(deps, job);
  } catch (error) {
    const log = deps.log.child({ deliveryId: job.deliveryId, command: job.command.kind, pr: job.prNumber });
    const github = asGitHubError(error);
    const auth = github && describeAuthFailure(github);
    if (github && auth) {
      reportAuthFailure(log, github, auth);
      return;
    }
    const decision = classifyFailure(error);
    if (decision.retry && !attempt.last) throw error;
    log.warn({ err: error, retry: attempt.retry }, `command not answered: ${decision.title}`);
  }
}
