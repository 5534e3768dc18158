/** A queued job names a run and why it should be looked at, never a commit: the worker reads the newest head. */
export interface RunJob {
  runId: number;
  /** opened | reopened | ready_for_review | synchronize | unlabeled | edited | rerequested | command */
  trigger: string;
  /** Review the whole PR in a fresh reviewer session. */
  full?: boolean;
  deliveryId?: string;
  /** Who caused the event: pushes by other bots are skipped unless the repository opts in. */
  senderLogin?: string;
  senderType?: string;
}
