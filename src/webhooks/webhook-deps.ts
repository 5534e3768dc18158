import type { Logger } from "pino";
import type { Database, DatabaseHandle, Transaction } from "../db/database.js";
import type { CommandJob } from "../queue/command-job.js";
import type { RunJob } from "../queue/run-job.js";
import type { RunQueue } from "../queue/run-queue.js";

/**
 * What webhook handlers may touch: the database and the queue. Nothing slow. A handler's writes (the
 * delivery record, the run, the job) go in one `transaction`: one commit, and all or nothing — when any
 * fails nothing is kept, Probot answers 500 and GitHub's redelivery finds a clean slate.
 */
export interface WebhookDeps {
  db: Database;
  transaction: <T>(fn: (tx: Transaction) => Promise<T>) => Promise<T>;
  /** Enqueues inside `tx` (the job exists only if the transaction commits). */
  enqueue: (job: RunJob, tx: Transaction) => Promise<string | null>;
  enqueueCommand: (job: CommandJob, tx: Transaction) => Promise<string | null>;
  log: Logger;
}

/** The handlers' dependencies over an open database and the queue on it. */
export function createWebhookDeps(deps: { database: DatabaseHandle; queue: RunQueue; log: Logger }): WebhookDeps {
  return {
    db: deps.database.db,
    transaction: (fn) => deps.database.transaction(fn),
    enqueue: (job, tx) => deps.queue.enqueue(job, tx),
    enqueueCommand: (job, tx) => deps.queue.enqueueCommand(job, tx),
    log: deps.log,
  };
}
