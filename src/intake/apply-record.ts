import { applyCommand } from "./apply-command.js";
import { applyPullRequest } from "./apply-pull-request.js";
import { applyPullRequestClosed } from "./apply-pull-request-closed.js";
import { applyRerun } from "./apply-rerun.js";
import type { IntakeDeps } from "./intake-deps.js";
import type { IntakeRecord } from "./intake-record.js";

/** Applies one journaled delivery to the database (a redelivered id changes nothing). */
export function applyRecord(record: IntakeRecord, deps: IntakeDeps): Promise<void> {
  switch (record.kind) {
    case "pull_request":
      return applyPullRequest(record, deps);
    case "pull_request_closed":
      return applyPullRequestClosed(record, deps);
    case "rerun":
      return applyRerun(record, deps);
    case "command":
      return applyCommand(record, deps);
  }
}
