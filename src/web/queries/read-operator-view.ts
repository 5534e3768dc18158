import { desc, eq, sql } from "drizzle-orm";
import type { Database } from "../../db/database.js";
import { refusals, workerJobs, workers } from "../../db/schema.js";
import type { FailedJobRow, OperatorView, QueueRow } from "../views/operator-view.js";

const LIMIT = 50;

/** Rows of a raw statement, as either driver returns them. */
function rowsOf(result: unknown): Record<string, unknown>[] {
  if (Array.isArray(result)) return result as Record<string, unknown>[];
  return (result as { rows: Record<string, unknown>[] }).rows;
}

/**
 * The operator page: each queue's waiting, running and failed jobs, the workers and what they run, the
 * newest failed jobs with the reason the queue kept (pg-boss's `output`: an error's message, or the
 * timeout's), and the newest refusals. A fixed number of statements; no queue rows before the queue's
 * schema exists.
 */
export async function readOperatorView(db: Database): Promise<OperatorView> {
  const [present] = rowsOf(
    await db.execute(
      sql`select to_regclass('pgboss.job') is not null as job, to_regclass('pgboss.archive') is not null as archive`,
    ),
  );
  const [queues, failedJobs, workerRows, refusalRows] = await Promise.all([
    present?.job ? readQueues(db) : Promise.resolve([]),
    present?.job ? readFailedJobs(db, present.archive === true) : Promise.resolve([]),
    db
      .select({
        id: workers.id,
        host: workers.host,
        pid: workers.pid,
        role: workers.role,
        startedAt: workers.startedAt,
        beatAt: workers.beatAt,
        jobs: sql<number>`count(${workerJobs.jobId})::int`,
      })
      .from(workers)
      .leftJoin(workerJobs, eq(workerJobs.workerId, workers.id))
      .groupBy(workers.id)
      .orderBy(workers.startedAt, workers.id),
    db.select().from(refusals).orderBy(desc(refusals.createdAt), desc(refusals.id)).limit(LIMIT),
  ]);
  return {
    queues,
    workers: workerRows,
    failedJobs,
    refusals: refusalRows.map((r) => ({
      kind: r.kind,
      repositoryFullName: r.repositoryFullName,
      prNumber: r.prNumber,
      actor: r.actor,
      reason: r.reason,
      count: r.count,
      at: r.createdAt,
    })),
  };
}

async function readQueues(db: Database): Promise<QueueRow[]> {
  const rows = rowsOf(
    await db.execute(sql`
      select q.name,
        count(j.id) filter (where j.state in ('created', 'retry'))::int as queued,
        count(j.id) filter (where j.state = 'active')::int as active,
        count(j.id) filter (where j.state = 'failed')::int as failed
      from pgboss.queue q
      left join pgboss.job j on j.name = q.name and j.state in ('created', 'retry', 'active', 'failed')
      group by q.name
      order by q.name`),
  );
  return rows.map((r) => ({
    name: String(r.name),
    queued: Number(r.queued),
    active: Number(r.active),
    failed: Number(r.failed),
  }));
}

/** A whole number in a job's data (run jobs name their run; command jobs their repository and PR). */
const INT = "'^[0-9]{1,9}$'";

async function readFailedJobs(db: Database, withArchive: boolean): Promise<FailedJobRow[]> {
  const failed = sql`select id, name, data, output, completed_on from pgboss.job where state = 'failed'`;
  const archived = sql`select id, name, data, output, completed_on from pgboss.archive where state = 'failed'`;
  const rows = rowsOf(
    await db.execute(sql`
      with failed as (
        (${failed}${withArchive ? sql` union all ${archived}` : sql``})
        order by completed_on desc nulls last limit ${LIMIT}
      )
      select f.id::text as id, f.name as queue, f.completed_on as failed_at,
        coalesce(f.data->>'repositoryFullName', r.repository_full_name) as repository_full_name,
        coalesce(case when f.data->>'prNumber' ~ ${sql.raw(INT)} then (f.data->>'prNumber')::int end, r.pr_number) as pr_number,
        coalesce(f.output->>'message', f.output->'value'->>'message', f.output->>'value', f.output::text, '') as reason
      from failed f
      left join runs r on r.id = case when f.data->>'runId' ~ ${sql.raw(INT)} then (f.data->>'runId')::int end
      order by f.completed_on desc nulls last, f.id`),
  );
  return rows.map((r) => ({
    id: String(r.id),
    queue: String(r.queue),
    repositoryFullName: r.repository_full_name === null ? null : String(r.repository_full_name),
    prNumber: r.pr_number === null ? null : Number(r.pr_number),
    failedAt: r.failed_at === null ? null : new Date(String(r.failed_at)),
    reason: String(r.reason),
  }));
}
