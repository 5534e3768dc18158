import type { Logger } from "pino";
import type { Database } from "../db/database.js";
import type { RunJob } from "../queue/run-job.js";

/** What webhook handlers may touch: the database and the queue. Nothing slow. */
export interface WebhookDeps {
  db: Database;
  enqueue: (job: RunJob) => Promise<string | null>;
  log: Logger;
}
