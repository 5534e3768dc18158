import { recordPullRequestEvent } from "../db/record-pull-request-event.js";
import { RUN_JOB_INSERT } from "../queue/run-job-insert.js";
import type { IntakeDeps } from "./intake-deps.js";
import { redeliveryIgnored } from "./redelivery-ignored.js";
import type { PullRequestRecord } from "./intake-record.js";

/** Records the delivery, refreshes the run and queues a review — one statement, so all or nothing. */
export async function applyPullRequest(record: PullRequestRecord, deps: IntakeDeps): Promise<void> {
  const { deliveryId, action, run, sender } = record;
  const outcome = await recordPullRequestEvent(
    deps.executeSql,
    {
      deliveryId,
      event: "pull_request",
      action,
      sender,
      run,
    },
    RUN_JOB_INSERT,
  );
  const event = `pull_request.${action}`;
  if (!outcome) return redeliveryIgnored(deps, deliveryId, "pull_request", { event });
  const { runId, jobId } = outcome;
  const fields = { deliveryId, event, runId, headSha: run.headSha, queued: jobId !== null };
  // A push while the run's review waits is folded into it: the usual case on a busy PR, said at debug
  // (one info line per delivery would double what a delivery costs the process that answers webhooks).
  if (jobId) deps.log.info(fields, "review queued");
  else deps.log.debug(fields, "review already waiting; it will take the newest head");
}
