import type { Logger } from "pino";
import type { Database } from "../../db/database.js";
import type { RunJob } from "../../domain/run-job.js";
import type { GitHubClient } from "../../github/github-client.js";
import type { Refusals } from "../../refusals/refusals.js";

/** What the command handlers are handed by the wiring (a module of its own, so handlers import no handler for it). */
export interface CommandDeps {
  db: Database;
  log: Logger;
  github: (installationId: number) => Promise<GitHubClient>;
  enqueueRun: (job: RunJob) => Promise<string | null>;
  /** Where a refused command goes: counted (refusals_total) and kept for the operator page, in one call. */
  refusals: Refusals;
}
