import type { RunJobInsert } from "../db/record-pull-request-event.js";
import { RUN_QUEUE } from "./queue-names.js";

/**
 * The runs' review jobs as pg-boss's own send() writes them for the run queue (policy stately, keyed by
 * run: ON CONFLICT DO NOTHING when one is already waiting; expiry, retries and retention from the queue's
 * row), for the intake's one-statement apply. `test/intake/apply-record.test.ts` compares the row with one
 * pg-boss's send() writes, so a pg-boss upgrade that changes its job table fails there, not in production.
 */
export const RUN_JOB_INSERT: RunJobInsert = {
  queue: RUN_QUEUE,
  ctes: `job AS (
  INSERT INTO pgboss.job (id, name, data, priority, start_after, singleton_key, singleton_on, dead_letter, expire_in, keep_until,
    retry_limit, retry_delay, retry_backoff, policy)
  SELECT gen_random_uuid(), q.name,
    jsonb_build_object('runId', run.id, 'trigger', run.j ->> 'action', 'deliveryId', run.j ->> 'deliveryId',
      'senderLogin', run.j -> 'sender' ->> 'login', 'senderType', run.j -> 'sender' ->> 'type',
      'headSha', run.j -> 'run' ->> 'headSha'),
    0, now(), run.id::text, NULL, q.dead_letter,
    COALESCE(q.expire_seconds * interval '1s', interval '15 minutes'),
    now() + CAST(COALESCE((q.retention_minutes * 60)::text, '14 days') AS interval),
    COALESCE(q.retry_limit, 2),
    CASE WHEN COALESCE(q.retry_backoff, false) THEN GREATEST(COALESCE(q.retry_delay, 0), 1) ELSE COALESCE(q.retry_delay, 0) END,
    COALESCE(q.retry_backoff, false),
    q.policy
  FROM run, pgboss.queue q
  WHERE q.name = $2
  ON CONFLICT DO NOTHING
  RETURNING id, singleton_key
), queue_present AS (
  SELECT EXISTS (SELECT 1 FROM pgboss.queue WHERE name = $2) AS present
)`,
};
