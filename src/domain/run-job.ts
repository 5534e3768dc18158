/** A queued job names a run and why it should be looked at, never a commit: the worker reads the newest head. */
export interface RunJob {
  runId: number;
  /** opened | reopened | ready_for_review | synchronize | unlabeled | edited | rerequested | command */
  trigger: string;
  /** Review the whole PR in a fresh reviewer session. */
  full?: boolean;
  deliveryId?: string;
  /**
   * Who caused the event. It never makes a PR skipped (the skip rules judge the PR's author); a push by
   * someone other than the author makes its head reviewed even where the author's PRs are skipped.
   */
  senderLogin?: string;
  senderType?: string;
  /** The PR's head the event named: when the run's head moved past it, a later event (by anyone) moved it. */
  headSha?: string;
}
