import type { ExecuteSql } from "../db/database.js";

/** One queue's jobs in one state. */
export interface QueueStat {
  queue: string;
  state: string;
  count: number;
  /**
   * Seconds since the oldest of them was created (waiting: `created`, `retry`) or started (`active`);
   * null for finished states and when there are none.
   */
  oldestAgeSeconds: number | null;
}

/** Every queue pg-boss knows × every job state, so a state that emptied reads 0 rather than vanishing. */
const QUEUE_STATS_SQL = `
  SELECT q.name AS queue, s.state::text AS state, count(j.id)::int AS count,
    CASE WHEN s.state IN ('created', 'retry', 'active')
      THEN EXTRACT(EPOCH FROM now() - min(CASE WHEN s.state = 'active' THEN j.started_on ELSE j.created_on END))::float8
    END AS oldest_age_seconds
  FROM pgboss.queue q
  CROSS JOIN unnest(enum_range(NULL::pgboss.job_state)) AS s(state)
  LEFT JOIN pgboss.job j ON j.name = q.name AND j.state = s.state
  GROUP BY q.name, s.state
  ORDER BY q.name, s.state`;

/**
 * Each pg-boss queue's jobs per state, with the age of the oldest, in one statement over `pgboss.job`
 * (plain SQL through the handle's `executeSql`: PostgreSQL and PGlite alike).
 */
export async function queueStats(executeSql: ExecuteSql): Promise<QueueStat[]> {
  const { rows } = await executeSql(QUEUE_STATS_SQL, []);
  return rows.map((row) => ({
    queue: String(row.queue),
    state: String(row.state),
    count: Number(row.count),
    oldestAgeSeconds:
      row.oldest_age_seconds === null || row.oldest_age_seconds === undefined
        ? null
        : Math.max(0, Number(row.oldest_age_seconds)),
  }));
}
