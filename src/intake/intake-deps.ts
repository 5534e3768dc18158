import type { Logger } from "pino";
import type { Database, DatabaseHandle, ExecuteSql, Transaction } from "../db/database.js";
import type { Metrics } from "../metrics/metrics.js";
import type { CommandJob } from "../domain/command-job.js";
import type { RunJob } from "../domain/run-job.js";
import type { RunQueue } from "../queue/run-queue.js";

/**
 * What applying a delivery may touch: the database and the queue. A delivery's writes (its id, the run,
 * the job) go in one `transaction`: one commit, all or nothing — when any fails nothing is kept and the
 * intake tries the whole record again.
 */
export interface IntakeDeps {
  db: Database;
  /** One raw statement outside any transaction (atomic on its own). */
  executeSql: ExecuteSql;
  transaction: <T>(fn: (tx: Transaction) => Promise<T>) => Promise<T>;
  /** Enqueues inside `tx` (the job exists only if the transaction commits). */
  enqueue: (job: RunJob, tx: Transaction) => Promise<string | null>;
  enqueueCommand: (job: CommandJob, tx: Transaction) => Promise<string | null>;
  log: Logger;
  /** Counts redeliveries (webhook_deliveries_total, outcome `duplicate`); absent = nothing recorded. */
  metrics?: Metrics;
}

/** The appliers' dependencies over an open database and the queue on it. */
export function createIntakeDeps(deps: {
  database: DatabaseHandle;
  queue: RunQueue;
  log: Logger;
  metrics?: Metrics;
}): IntakeDeps {
  return {
    db: deps.database.db,
    executeSql: (text, params) => deps.database.executeSql(text, params),
    transaction: (fn) => deps.database.transaction(fn),
    enqueue: (job, tx) => deps.queue.enqueue(job, tx),
    enqueueCommand: (job, tx) => deps.queue.enqueueCommand(job, tx),
    log: deps.log,
    metrics: deps.metrics,
  };
}
