import { recordPullRequestEvents } from "../db/record-pull-request-event.js";
import { RUN_JOB_INSERT } from "../queue/run-job-insert.js";
import type { IntakeDeps } from "./intake-deps.js";
import { redeliveryIgnored } from "./redelivery-ignored.js";
import { replayIgnored } from "./replay-ignored.js";
import type { PullRequestRecord } from "./intake-record.js";

/**
 * Records the deliveries, refreshes their runs and queues their reviews — one statement, so all or
 * nothing. The records name distinct deliveries and distinct pull requests (see applyTogether).
 */
export async function applyPullRequests(records: readonly PullRequestRecord[], deps: IntakeDeps): Promise<void> {
  const outcomes = await recordPullRequestEvents(
    deps.executeSql,
    records.map((record) => ({
      deliveryId: record.deliveryId,
      event: "pull_request",
      action: record.action,
      sender: record.sender,
      run: record.run,
      queue: queues(record),
      bodyDigest: record.bodyDigest,
    })),
    RUN_JOB_INSERT,
  );
  for (const [i, record] of records.entries()) {
    const outcome = outcomes[i];
    const { deliveryId, action, run } = record;
    const event = `pull_request.${action}`;
    if (!outcome) {
      redeliveryIgnored(deps, deliveryId, "pull_request", { event });
      continue;
    }
    if ("replayOf" in outcome) {
      replayIgnored(deps, deliveryId, "pull_request", outcome.replayOf, { event });
      continue;
    }
    const { runId, jobId } = outcome;
    const fields = { deliveryId, event, runId, headSha: run.headSha, queued: jobId !== null, edited: record.edited };
    if (!queues(record)) {
      deps.log.debug(fields, "run refreshed; nothing to review");
      continue;
    }
    // A push while the run's review waits is folded into it: the usual case on a busy PR, said at debug
    // (one info line per delivery would double what a delivery costs the process that answers webhooks).
    if (jobId) deps.log.info(fields, "review queued");
    else deps.log.debug(fields, "review already waiting; it will take the newest head");
  }
}

/**
 * Whether the event asks for a look at the run. A label added only refreshes the run's labels: it never
 * cancels a review under way, and a review waiting reads them when it starts. A label removed is looked at
 * (it may have been what skipped the head; the review decides, and a reviewed head is left alone). An edit
 * always refreshes the run's title, body and base; it is looked at, as a label removed is, only when it
 * changed the title (`ignore.title` may have skipped the head) or the base branch (`ignore.base_branches`
 * may have; the PR's diff changed too). A body edited only queues nothing.
 */
function queues({ action, edited }: PullRequestRecord): boolean {
  if (action === "labeled") return false;
  if (action === "edited") return edited?.includes("title") === true || edited?.includes("base") === true;
  return true;
}
