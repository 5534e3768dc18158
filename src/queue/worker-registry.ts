import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import type { DatabaseHandle } from "../db/database.js";
import { currentProcess, isProcessAlive, type ProcessIdentity } from "../system/process-identity.js";

export interface WorkerRegistryOptions {
  database: DatabaseHandle;
  log: Logger;
  /** How often this worker says it is alive, and looks for workers that stopped. Default 5 s. */
  beatMs?: number;
  /** A worker silent for this long is presumed dead (its jobs are handed back). Default 30 s. */
  staleMs?: number;
  /** Who this process is (tests pretend to be another host). */
  identity?: ProcessIdentity;
}

/** What the queue job and its turns say when their process is gone. */
const GONE = "the process running it stopped before it ended";

/**
 * Which worker runs which job, and whether that worker is alive. Every worker writes a heartbeat row and
 * a row per job it runs; every few seconds each worker looks for workers that stopped — silent past
 * `staleMs`, or on this host with their pid gone (a restarted app sees its previous self at once) — and
 * hands their jobs back to the queue to run now, closing their running turns as `interrupted`. So a
 * process killed mid-turn holds its run for seconds, not for a job's lease.
 */
export class WorkerRegistry {
  readonly id = randomUUID();
  private timer: NodeJS.Timeout | undefined;
  private beating: Promise<void> | undefined;

  private constructor(
    private readonly options: Required<Omit<WorkerRegistryOptions, "identity">> & { identity: ProcessIdentity },
  ) {}

  static async start(options: WorkerRegistryOptions): Promise<WorkerRegistry> {
    const registry = new WorkerRegistry({ beatMs: 5000, staleMs: 30_000, identity: currentProcess(), ...options });
    await registry.beat();
    await registry.reapStopped();
    registry.timer = setInterval(() => {
      registry.beating ??= registry.tick().finally(() => (registry.beating = undefined));
    }, registry.options.beatMs);
    registry.timer.unref();
    return registry;
  }

  private get sql() {
    return this.options.database.executeSql.bind(this.options.database);
  }

  private async tick(): Promise<void> {
    try {
      await this.beat();
      await this.reapStopped();
    } catch (error) {
      this.options.log.warn({ err: error, workerId: this.id }, "worker heartbeat failed");
    }
  }

  /** Says this worker is alive (again: a worker presumed dead while the database was away comes back). */
  private async beat(): Promise<void> {
    const { host, pid, started } = this.options.identity;
    await this.sql(
      `insert into workers (id, host, pid, pid_started, role) values ($1, $2, $3, $4, 'worker')
       on conflict (id) do update set beat_at = now()`,
      [this.id, host, pid, started],
    );
  }

  /** Hands back the jobs of every worker that stopped; returns how many jobs. */
  async reapStopped(): Promise<number> {
    const { rows } = await this.sql(
      `select id, host, pid, pid_started, beat_at < now() - make_interval(secs => $2::double precision) as silent from workers where id <> $1`,
      [this.id, this.options.staleMs / 1000],
    );
    let handedBack = 0;
    for (const row of rows as { id: string; host: string; pid: number; pid_started: string; silent: boolean }[]) {
      const gone =
        row.silent ||
        (row.host === this.options.identity.host && !isProcessAlive({ pid: row.pid, started: row.pid_started }));
      if (!gone) continue;
      const { rows: jobs } = await this.sql(`select job_id, queue, run_id from worker_jobs where worker_id = $1`, [
        row.id,
      ]);
      for (const job of jobs as { job_id: string; queue: string; run_id: number | null }[]) {
        if (await this.release(job.job_id, job.run_id, GONE)) handedBack++;
      }
      await this.sql(`delete from workers where id = $1`, [row.id]);
      this.options.log.warn(
        { workerId: row.id, host: row.host, pid: row.pid, jobs: jobs.length, silent: row.silent },
        "worker stopped: its jobs are handed back to the queue",
      );
    }
    return handedBack;
  }

  /** Records that this worker runs the job (removed by `finished` or `release`). */
  async started(jobId: string, queue: string, runId: number | null): Promise<void> {
    await this.sql(
      `insert into worker_jobs (job_id, queue, worker_id, run_id) values ($1, $2, $3, $4) on conflict (job_id) do update set worker_id = excluded.worker_id`,
      [jobId, queue, this.id, runId],
    );
  }

  async finished(jobId: string): Promise<void> {
    await this.sql(`delete from worker_jobs where job_id = $1 and worker_id = $2`, [jobId, this.id]);
  }

  /**
   * Hands a job that is still active back to the queue to run at once (or fails it when its retries are
   * spent; a job of a run that already has one waiting to retry is cancelled — that one covers the run),
   * and closes the run's running turns as `interrupted`. Returns whether the job was still active.
   */
  async release(jobId: string, runId: number | null, reason: string): Promise<boolean> {
    return this.options.database.transaction(async (tx) => {
      const { rows } = await tx.executeSql(
        `with handed as (
           select j.id, case
             when j.retry_count >= j.retry_limit then 'failed'
             when exists (select 1 from pgboss.job o where o.name = j.name and o.id <> j.id and o.state = 'retry' and o.policy = 'stately' and coalesce(o.singleton_key, '') = coalesce(j.singleton_key, '')) then 'cancelled'
             else 'retry' end as next
           from pgboss.job j where j.id = $1::uuid and j.state = 'active'
         )
         update pgboss.job set
           state = handed.next::pgboss.job_state,
           start_after = now(),
           completed_on = case when handed.next = 'retry' then null else now() end,
           output = jsonb_build_object('message', $2::text)
         from handed where pgboss.job.id = handed.id
         returning handed.next`,
        [jobId, reason],
      );
      if (runId !== null) {
        await tx.executeSql(
          `update turns set status = 'interrupted', finished_at = now(), error = $2 where run_id = $1 and status = 'running'`,
          [runId, reason],
        );
      }
      await tx.executeSql(`delete from worker_jobs where job_id = $1`, [jobId]);
      const next = (rows[0] as { next?: string } | undefined)?.next;
      if (next)
        this.options.log.info(
          { jobId, runId, next },
          next === "retry" ? "job handed back to the queue" : `job ${next}: not handed back`,
        );
      return next !== undefined;
    });
  }

  /** Stops beating and leaves the registry (jobs still recorded stay, for another worker to hand back). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.beating;
    const { rows } = await this.sql(`select 1 from worker_jobs where worker_id = $1 limit 1`, [this.id]);
    if (rows.length === 0) await this.sql(`delete from workers where id = $1`, [this.id]);
  }
}
