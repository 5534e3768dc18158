import type { Logger } from "pino";
import type { JobAttempt } from "../domain/job-attempt.js";
import type { FailureDecision } from "./job/classify-failure.js";

/**
 * A failed attempt of a job, where the operator looks: at warn while the queue will try it again, at
 * error on the last try, with the reason and what to check when it is known.
 */
export function reportJobFailure(log: Logger, error: unknown, decision: FailureDecision, attempt: JobAttempt): void {
  const fields = {
    err: error,
    attempt: attempt.retry + 1,
    reason: decision.detail,
    ...(decision.fix ? { fix: decision.fix } : {}),
  };
  if (!attempt.last) {
    log.warn(fields, `job failed, the queue will retry it: ${decision.title}: ${decision.detail}`);
    return;
  }
  log.error(
    fields,
    `job failed for good after ${attempt.retry + 1} attempts: ${decision.title}: ${decision.fix ?? decision.detail}`,
  );
}
