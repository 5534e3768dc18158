import PgBoss from "pg-boss";
import type { Logger } from "pino";
import type { DatabaseHandle, ExecuteSql } from "../db/database.js";
import { withAdvisoryLock } from "../db/with-advisory-lock.js";
import type { CommandJob } from "../domain/command-job.js";
import type { JobAttempt } from "../domain/job-attempt.js";
import type { RunJob } from "../domain/run-job.js";
import { COMMAND_QUEUE, RUN_QUEUE } from "./queue-names.js";
import { WorkerRegistry } from "./worker-registry.js";

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
  /** Heartbeat and dead-worker settings of this process's workers (see WorkerRegistry). */
  heartbeat?: { beatMs?: number; staleMs?: number };
}

/** A job this process is running. */
interface ActiveJob {
  controller: AbortController;
  /** Set when the process stops before the job ends: it is handed back to the queue, not failed. */
  interrupted: boolean;
  done: Promise<void>;
}

/** Why a running job was aborted at stop. */
const STOPPING = "the app stopped before the job ended";

export type RunJobHandler = (job: RunJob, signal: AbortSignal, attempt: JobAttempt) => Promise<void>;

const FETCH_FILTER = "AND state < 'active'";

/** Held while a process installs pg-boss's schema and creates the queues (see RunQueue.start). */
const QUEUE_SETUP_LOCK_KEY = 7_246_003;

/** Adds "no active job with the same key" to pg-boss's fetch query (the only one that locks with SKIP LOCKED). */
function skipBusyRuns(text: string): string {
  if (!text.includes("FOR UPDATE SKIP LOCKED") || !text.includes(FETCH_FILTER)) return text;
  return text.replace(
    FETCH_FILTER,
    `${FETCH_FILTER} AND NOT EXISTS (SELECT 1 FROM pgboss.job busy WHERE busy.name = job.name AND busy.state = 'active' AND busy.singleton_key = job.singleton_key)`,
  );
}

/** pg-boss's per-call executor: the insert runs on the caller's connection (its transaction). */
function sendOn(on: { executeSql: ExecuteSql } | undefined): {
  db?: { executeSql: (text: string, values: unknown[]) => Promise<{ rows: any[] }> };
} {
  if (!on) return {};
  return { db: { executeSql: (text, values) => on.executeSql(text, values ?? []) } };
}

/**
 * The run queue on pg-boss (policy `stately`, keyed by run): at most one waiting and one active job
 * per run, so a burst of pushes becomes one review and a run never has two turns at once.
 */
export class RunQueue {
  private registry: Promise<WorkerRegistry> | undefined;
  private readonly active = new Map<string, ActiveJob>();
  private stopping = false;

  private constructor(
    private readonly boss: PgBoss,
    private readonly options: RunQueueOptions,
  ) {}

  static async start(options: RunQueueOptions): Promise<RunQueue> {
    const { database } = options;
    const connection =
      database.url !== undefined
        ? { connectionString: database.url, max: 4 }
        : { db: { executeSql: (text: string, values: unknown[]) => database.executeSql(text, values ?? []) } };
    const boss = new PgBoss({
      ...connection,
      schema: "pgboss",
      schedule: false,
      supervise: true,
      maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 30,
    });
    // pg-boss 10 fetches the oldest waiting job even when its run already has an active one; making it
    // active then breaks the stately unique index, the whole fetch fails and every worker idles until that
    // run's turn ends (timgit/pg-boss#535). Fetch only jobs of runs with no active job instead.
    const db = boss.getDb();
    const executeSql = db.executeSql.bind(db);
    db.executeSql = (text, values) => executeSql(skipBusyRuns(text), values);
    boss.on("error", (error: Error) => options.log.warn({ err: error }, "queue error"));
    // Replicas starting together on a fresh database would create pg-boss's schema and the queues'
    // partitions at the same moment, and PostgreSQL answers one of them "deadlock detected": one at a time.
    await withAdvisoryLock(database, QUEUE_SETUP_LOCK_KEY, () => RunQueue.setUp(boss, options));
    return new RunQueue(boss, options);
  }

  private static async setUp(boss: PgBoss, options: RunQueueOptions): Promise<void> {
    await boss.start();
    await boss.createQueue(RUN_QUEUE, {
      name: RUN_QUEUE,
      policy: "stately",
      expireInSeconds: options.expireInSeconds,
      retryLimit: 2,
      retryDelay: options.retryDelaySeconds ?? 30,
      retryBackoff: true,
    });
    // Commands (help, status, dismiss, …) are answered at once, never behind a run's long turn.
    await boss.createQueue(COMMAND_QUEUE, {
      name: COMMAND_QUEUE,
      policy: "standard",
      expireInSeconds: 300,
      retryLimit: 2,
      retryDelay: options.retryDelaySeconds ?? 30,
    });
  }

  /**
   * Enqueues a job for the run; null when one is already waiting (it will see the newest head anyway).
   * With `on` (a transaction's executor, see DatabaseHandle.transaction) the job is inserted inside that
   * transaction: it exists only if, and once, the transaction commits.
   */
  async enqueue(job: RunJob, on?: { executeSql: ExecuteSql }): Promise<string | null> {
    return this.boss.send(RUN_QUEUE, job, { singletonKey: String(job.runId), ...sendOn(on) });
  }

  async enqueueCommand(job: CommandJob, on?: { executeSql: ExecuteSql }): Promise<string | null> {
    return this.boss.send(COMMAND_QUEUE, job, sendOn(on));
  }

  /** Starts command workers in this process. */
  async workCommands(
    concurrency: number,
    handler: (job: CommandJob, attempt: JobAttempt) => Promise<void>,
  ): Promise<void> {
    const registry = await this.workerRegistry();
    for (let i = 0; i < concurrency; i++) {
      await this.boss.work<CommandJob>(
        COMMAND_QUEUE,
        {
          batchSize: 1,
          includeMetadata: true as const,
          pollingIntervalSeconds: this.options.pollingIntervalSeconds ?? 1,
        },
        async ([job]) => {
          if (!job) return;
          await this.runTracked(registry, job.id, COMMAND_QUEUE, null, () =>
            handler(job.data, { retry: job.retryCount, last: job.retryCount >= job.retryLimit }),
          );
        },
      );
    }
  }

  /** This process's heartbeat, started with its first worker (which also hands back the jobs of workers that stopped). */
  private workerRegistry(): Promise<WorkerRegistry> {
    this.registry ??= WorkerRegistry.start({
      database: this.options.database,
      log: this.options.log,
      ...this.options.heartbeat,
    });
    return this.registry;
  }

  /**
   * Runs a job's handler, known to the registry while it runs. When the process stops before the handler
   * ends (see `stop`), the job is handed back to the queue to run at once elsewhere instead of failing.
   */
  private async runTracked(
    registry: WorkerRegistry,
    jobId: string,
    queue: string,
    runId: number | null,
    handler: (signal: AbortSignal) => Promise<void>,
  ): Promise<void> {
    const entry: ActiveJob = { controller: new AbortController(), interrupted: false, done: Promise.resolve() };
    let settle!: () => void;
    entry.done = new Promise<void>((resolve) => (settle = resolve));
    this.active.set(jobId, entry);
    try {
      await registry.started(jobId, queue, runId);
      await handler(entry.controller.signal);
    } catch (error) {
      if (!entry.interrupted) throw error;
    } finally {
      this.active.delete(jobId);
      try {
        if (entry.interrupted) await registry.release(jobId, runId, STOPPING);
        else await registry.finished(jobId);
      } catch (error) {
        this.options.log.warn({ err: error, jobId }, "could not update the job's worker record");
      }
      settle();
    }
  }

  /** Starts `concurrency` workers in this process. */
  async work(concurrency: number, handler: RunJobHandler): Promise<void> {
    const expireMs = this.options.expireInSeconds * 1000;
    const registry = await this.workerRegistry();
    for (let i = 0; i < concurrency; i++) {
      await this.boss.work<RunJob>(
        RUN_QUEUE,
        {
          batchSize: 1,
          includeMetadata: true as const,
          pollingIntervalSeconds: this.options.pollingIntervalSeconds ?? 1,
        },
        async ([job]) => {
          if (!job) return;
          await this.runTracked(registry, job.id, RUN_QUEUE, job.data.runId, async (stopSignal) => {
            // pg-boss stops waiting at expiry but does not stop the handler: abort it a little before.
            const expiry = new AbortController();
            const timer = setTimeout(() => expiry.abort(new Error("job expired")), Math.max(1000, expireMs - 5000));
            try {
              await handler(job.data, AbortSignal.any([stopSignal, expiry.signal]), {
                retry: job.retryCount,
                last: job.retryCount >= job.retryLimit,
              });
            } finally {
              clearTimeout(timer);
            }
          });
        },
      );
    }
  }

  /** Jobs waiting, retrying or running (tests and benchmarks wait for 0). */
  async pending(): Promise<number> {
    const [runs, commands] = await Promise.all([
      this.boss.getQueueSize(RUN_QUEUE, { before: "completed" }),
      this.boss.getQueueSize(COMMAND_QUEUE, { before: "completed" }),
    ]);
    return runs + commands;
  }

  /** Jobs this process is running now. */
  running(): number {
    return this.active.size;
  }

  /**
   * Stops taking jobs, lets the running ones finish within `graceMs`, then aborts those still running
   * (their agent is killed) and hands them back to the queue so another process — or the next start —
   * runs them at once; their turns are closed. Jobs can still be enqueued afterwards (until `stop`).
   */
  async stopWorking(graceMs: number): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    await Promise.all([this.boss.offWork(RUN_QUEUE), this.boss.offWork(COMMAND_QUEUE)]);
    const deadline = Date.now() + graceMs;
    while (this.active.size > 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, Math.min(200, deadline - Date.now())));
    if (this.active.size > 0) {
      this.options.log.warn(
        { jobs: this.active.size, graceMs },
        "grace period over: running jobs are stopped and handed back to the queue",
      );
      const aborted = [...this.active.values()];
      for (const job of aborted) {
        job.interrupted = true;
        // `interrupted` tells the turn's recorder that the turn will run again, not that it was cancelled.
        job.controller.abort(Object.assign(new Error(STOPPING), { interrupted: true }));
      }
      await Promise.race([
        Promise.all(aborted.map((job) => job.done)),
        new Promise((resolve) => setTimeout(resolve, 15_000)),
      ]);
    }
    const registry = await this.registry?.catch(() => undefined);
    await registry
      ?.stop()
      .catch((error: unknown) => this.options.log.warn({ err: error }, "could not leave the worker registry"));
  }

  /** `stopWorking(graceMs)`, then closes the queue. */
  async stop(graceMs = 30_000): Promise<void> {
    await this.stopWorking(graceMs);
    await this.boss.stop({ graceful: true, wait: true, timeout: 1000 });
  }
}
