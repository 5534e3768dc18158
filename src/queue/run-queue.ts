import PgBoss from "pg-boss";
import type { Logger } from "pino";
import type { DatabaseHandle } from "../db/database.js";
import { RUN_QUEUE, type RunJob } from "./run-job.js";

export interface RunQueueOptions {
  database: DatabaseHandle;
  log: Logger;
  /** A job still active after this long is failed (its handler is aborted) and retried by any worker. */
  expireInSeconds: number;
  pollingIntervalSeconds?: number;
  /** Seconds before a failed job is retried (doubling each time). Default 30. */
  retryDelaySeconds?: number;
  /** How often expired jobs are looked for. Default 30. */
  maintenanceIntervalSeconds?: number;
}

/** Which try this is: `retry` > 0 after a failure or an expired lease; on the last one a throw is final. */
export interface JobAttempt {
  retry: number;
  last: boolean;
}

export type RunJobHandler = (job: RunJob, signal: AbortSignal, attempt: JobAttempt) => Promise<void>;

/**
 * The run queue on pg-boss (policy `stately`, keyed by run): at most one waiting and one active job
 * per run, so a burst of pushes becomes one review and a run never has two turns at once.
 */
export class RunQueue {
  private constructor(
    private readonly boss: PgBoss,
    private readonly options: RunQueueOptions,
  ) {}

  static async start(options: RunQueueOptions): Promise<RunQueue> {
    const { database } = options;
    const connection =
      database.kind === "postgres"
        ? { connectionString: database.url!, max: 4 }
        : { db: { executeSql: (text: string, values: unknown[]) => database.executeSql(text, values ?? []) } };
    const boss = new PgBoss({ ...connection, schema: "pgboss", schedule: false, supervise: true, maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 30 });
    boss.on("error", (error: Error) => options.log.warn({ err: error }, "queue error"));
    await boss.start();
    await boss.createQueue(RUN_QUEUE, {
      name: RUN_QUEUE,
      policy: "stately",
      expireInSeconds: options.expireInSeconds,
      retryLimit: 2,
      retryDelay: options.retryDelaySeconds ?? 30,
      retryBackoff: true,
    });
    return new RunQueue(boss, options);
  }

  /** Enqueues a job for the run; null when one is already waiting (it will see the newest head anyway). */
  async enqueue(job: RunJob): Promise<string | null> {
    return this.boss.send(RUN_QUEUE, job, { singletonKey: String(job.runId) });
  }

  /** Starts `concurrency` workers in this process. */
  async work(concurrency: number, handler: RunJobHandler): Promise<void> {
    const expireMs = this.options.expireInSeconds * 1000;
    for (let i = 0; i < concurrency; i++) {
      await this.boss.work<RunJob>(
        RUN_QUEUE,
        { batchSize: 1, includeMetadata: true as const, pollingIntervalSeconds: this.options.pollingIntervalSeconds ?? 1 },
        async ([job]) => {
          if (!job) return;
          // pg-boss stops waiting at expiry but does not stop the handler: abort it a little before.
          const controller = new AbortController();
          const timer = setTimeout(() => controller.abort(new Error("job expired")), Math.max(1000, expireMs - 5000));
          try {
            await handler(job.data, controller.signal, { retry: job.retryCount, last: job.retryCount >= job.retryLimit });
          } finally {
            clearTimeout(timer);
          }
        },
      );
    }
  }

  /** Jobs waiting, retrying or running (tests and benchmarks wait for 0). */
  async pending(): Promise<number> {
    return this.boss.getQueueSize(RUN_QUEUE, { before: "completed" });
  }

  async stop(): Promise<void> {
    await this.boss.stop({ graceful: true, wait: true, timeout: 30_000 });
  }
}
