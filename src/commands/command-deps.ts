import type { Logger } from "pino";
import type { Database } from "../db/database.js";
import type { RunJob } from "../domain/run-job.js";
import type { GitHubClient } from "../github/github-client.js";
import type { Metrics } from "../metrics/metrics.js";

/** What the command handlers are handed by the wiring (a module of its own, so handlers import no handler for it). */
export interface CommandDeps {
  db: Database;
  log: Logger;
  github: (installationId: number) => Promise<GitHubClient>;
  enqueueRun: (job: RunJob) => Promise<string | null>;
  /** Counts refused commands; absent = nothing recorded. */
  metrics?: Metrics;
}
