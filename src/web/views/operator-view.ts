export interface QueueRow {
  name: string;
  queued: number;
  active: number;
  failed: number;
}

export interface WorkerRow {
  id: string;
  host: string;
  pid: number;
  role: string;
  startedAt: Date;
  beatAt: Date;
  /** Jobs it is running now. */
  jobs: number;
}

export interface FailedJobRow {
  id: string;
  queue: string;
  repositoryFullName: string | null;
  prNumber: number | null;
  failedAt: Date | null;
  /** The job's last error, as the queue kept it (untrusted text). */
  reason: string;
}

export interface RefusalRow {
  kind: string;
  repositoryFullName: string | null;
  prNumber: number | null;
  actor: string | null;
  /** Untrusted text, redacted again when shown (the page's own redaction, with the app's secrets). */
  reason: string;
  /** How many refusals the row stands for (webhook refusals: all of one kind in a minute). */
  count: number;
  at: Date;
}

/** The operator page (the App's owner and WEB_ADMINS only, both matched by GitHub user id). */
export interface OperatorView {
  queues: QueueRow[];
  workers: WorkerRow[];
  /** Newest first, at most 50. */
  failedJobs: FailedJobRow[];
  /** Newest first, at most 50. */
  refusals: RefusalRow[];
}
