import type { ExecuteSql } from "./database.js";

/** What a pull request event says about its PR's run (the `runs` columns an event may set). */
export interface PullRequestRunFields {
  installationId: number;
  repositoryId: number;
  repositoryFullName: string;
  cloneUrl: string;
  prNumber: number;
  title: string;
  body: string;
  authorLogin: string;
  baseRef: string;
  baseSha: string;
  headRef: string;
  headSha: string;
  headRepoFullName: string | null;
  headCloneUrl: string | null;
  maintainerCanModify: boolean;
  draft: boolean;
  /** ISO time: the PR's `updated_at` (a JSON line keeps no Date). */
  prUpdatedAt: string | null;
}

export interface PullRequestEvent {
  deliveryId: string;
  event: string;
  /** The action (opened, synchronize, …): a `reopened` event opens a closed run again. */
  action: string;
  sender: { login: string; type: string };
  run: PullRequestRunFields;
}

// One statement with one parameter (the event as JSON: nothing for the driver to encode field by field)
// — one round trip, planned once per connection, atomic without BEGIN/COMMIT:
// 1. the delivery id (a redelivery stops everything below: each step reads the one before);
// 2. the run created or refreshed — never by an event older than the newest one applied (GitHub does not
//    promise delivery order); an older event leaves the run as it is but still queues a look at it;
// 3. the review job, exactly as pg-boss's own send() writes it for this queue (policy stately, keyed by
//    run: ON CONFLICT DO NOTHING when one is already waiting; expiry, retries and retention from the
//    queue's row). `test/intake/apply-record.test.ts` compares the row with one pg-boss's send()
//    writes, so a pg-boss upgrade that changes its job table fails there, not in production.
const STATEMENT = `
WITH e AS (
  SELECT $1::jsonb AS j, $1::jsonb -> 'run' AS r
), delivery AS (
  INSERT INTO webhook_deliveries (delivery_id, event) SELECT j ->> 'deliveryId', j ->> 'event' FROM e
  ON CONFLICT DO NOTHING
  RETURNING delivery_id
), upserted AS (
  INSERT INTO runs AS run (installation_id, repository_id, repository_full_name, clone_url, pr_number, title, body, author_login,
    base_ref, base_sha, head_ref, head_sha, head_repo_full_name, head_clone_url, maintainer_can_modify, draft, pr_updated_at)
  SELECT (r ->> 'installationId')::bigint, (r ->> 'repositoryId')::bigint, r ->> 'repositoryFullName', r ->> 'cloneUrl',
    (r ->> 'prNumber')::integer, r ->> 'title', r ->> 'body', r ->> 'authorLogin', r ->> 'baseRef', r ->> 'baseSha',
    r ->> 'headRef', r ->> 'headSha', r ->> 'headRepoFullName', r ->> 'headCloneUrl', (r ->> 'maintainerCanModify')::boolean,
    (r ->> 'draft')::boolean, (r ->> 'prUpdatedAt')::timestamptz
  FROM e, delivery
  ON CONFLICT (repository_id, pr_number) DO UPDATE SET
    installation_id = excluded.installation_id, repository_full_name = excluded.repository_full_name, clone_url = excluded.clone_url,
    title = excluded.title, body = excluded.body, author_login = excluded.author_login,
    base_ref = excluded.base_ref, base_sha = excluded.base_sha, head_ref = excluded.head_ref, head_sha = excluded.head_sha,
    head_repo_full_name = excluded.head_repo_full_name, head_clone_url = excluded.head_clone_url,
    maintainer_can_modify = excluded.maintainer_can_modify, draft = excluded.draft, pr_updated_at = excluded.pr_updated_at,
    state = CASE WHEN ($1::jsonb ->> 'action') = 'reopened' AND run.state = 'closed' THEN 'open' ELSE run.state END,
    updated_at = now()
  WHERE run.pr_updated_at IS NULL OR excluded.pr_updated_at IS NULL OR excluded.pr_updated_at >= run.pr_updated_at
  RETURNING id
), run AS (
  SELECT id FROM upserted
  UNION ALL
  SELECT runs.id FROM runs, e
  WHERE runs.repository_id = (e.r ->> 'repositoryId')::bigint AND runs.pr_number = (e.r ->> 'prNumber')::integer
    AND EXISTS (SELECT 1 FROM delivery) AND NOT EXISTS (SELECT 1 FROM upserted)
), job AS (
  INSERT INTO pgboss.job (id, name, data, priority, start_after, singleton_key, singleton_on, dead_letter, expire_in, keep_until,
    retry_limit, retry_delay, retry_backoff, policy)
  SELECT gen_random_uuid(), q.name,
    jsonb_build_object('runId', run.id, 'trigger', e.j ->> 'action', 'deliveryId', e.j ->> 'deliveryId',
      'senderLogin', e.j -> 'sender' ->> 'login', 'senderType', e.j -> 'sender' ->> 'type'),
    0, now(), run.id::text, NULL, q.dead_letter,
    COALESCE(q.expire_seconds * interval '1s', interval '15 minutes'),
    now() + CAST(COALESCE((q.retention_minutes * 60)::text, '14 days') AS interval),
    COALESCE(q.retry_limit, 2),
    CASE WHEN COALESCE(q.retry_backoff, false) THEN GREATEST(COALESCE(q.retry_delay, 0), 1) ELSE COALESCE(q.retry_delay, 0) END,
    COALESCE(q.retry_backoff, false),
    q.policy
  FROM run, e, pgboss.queue q
  WHERE q.name = $2
  ON CONFLICT DO NOTHING
  RETURNING id
)
SELECT EXISTS (SELECT 1 FROM delivery) AS fresh, (SELECT id FROM run) AS run_id, (SELECT id FROM job)::text AS job_id,
  EXISTS (SELECT 1 FROM pgboss.queue WHERE name = $2) AS queue_exists`;

/**
 * Records a pull request delivery, applies it to the PR's run and queues the run's review. Null when the
 * delivery id was seen before (a redelivery: nothing changed); else the run's id and the new job's id,
 * null when a job for the run was already waiting (it reads the newest head when it starts).
 */
export async function recordPullRequestEvent(
  executeSql: ExecuteSql,
  e: PullRequestEvent,
  /** The pg-boss queue the run's job goes to (the queue module owns its name). */
  queue: string,
): Promise<{ runId: number; jobId: string | null } | null> {
  const { rows } = await executeSql(STATEMENT, [JSON.stringify(e), queue]);

  const row = rows[0] as
    { fresh: boolean; run_id: number | null; job_id: string | null; queue_exists: boolean } | undefined;
  // Without its queue row the job insert would silently do nothing (as pg-boss's send would).
  if (row && !row.queue_exists)
    throw new Error(`queue ${queue} does not exist; the queue must be started before deliveries are applied`);
  if (!row?.fresh) return null;
  if (row.run_id === null)
    throw new Error(`delivery ${e.deliveryId}: run for PR #${e.run.prNumber} neither written nor found`);
  return { runId: Number(row.run_id), jobId: row.job_id };
}
