import { pullRequestKey } from "../db/record-pull-request-event.js";
import { applyCommand } from "./apply-command.js";
import { applyPullRequests } from "./apply-pull-request.js";
import { applyPullRequestClosed } from "./apply-pull-request-closed.js";
import { applyRerun } from "./apply-rerun.js";
import type { IntakeDeps } from "./intake-deps.js";
import type { IntakeRecord, PullRequestRecord } from "./intake-record.js";

/** Applies one journaled delivery to the database (a redelivered id changes nothing). */
export function applyRecord(record: IntakeRecord, deps: IntakeDeps): Promise<void> {
  switch (record.kind) {
    case "pull_request":
      return applyPullRequests([record], deps);
    case "pull_request_closed":
      return applyPullRequestClosed(record, deps);
    case "rerun":
      return applyRerun(record, deps);
    case "command":
      return applyCommand(record, deps);
  }
}

/**
 * How many of `records` (the oldest first) can be applied together, as one statement, with the same
 * effect as one after the other: a run of pull request events naming distinct deliveries and distinct
 * pull requests (each touches its own rows), at most `max`. At least 1.
 */
export function applyTogether(records: readonly IntakeRecord[], max: number): number {
  const deliveries = new Set<string>();
  const pullRequests = new Set<string>();
  let n = 0;
  for (const record of records) {
    if (n >= max || record.kind !== "pull_request") break;
    const pullRequest = pullRequestKey(record.run);
    if (deliveries.has(record.deliveryId) || pullRequests.has(pullRequest)) break;
    deliveries.add(record.deliveryId);
    pullRequests.add(pullRequest);
    n++;
  }
  return Math.max(n, 1);
}

/** Applies records `applyTogether` grouped: all or nothing. */
export function applyRecords(records: readonly IntakeRecord[], deps: IntakeDeps): Promise<void> {
  if (records.length === 1) return applyRecord(records[0]!, deps);
  if (!records.every((r): r is PullRequestRecord => r.kind === "pull_request"))
    throw new Error("only pull request events are applied together");
  return applyPullRequests(records, deps);
}
