import type { PullRequestRunFields } from "../domain/pull-request.js";
import type { ExecuteSql } from "./database.js";

/**
 * SQL that queues a run's job inside the pull request statement: CTEs `job(id)` (the job written, no row
 * when one is already waiting) and `queue_present(present)` (whether the queue exists), reading the
 * CTEs `e(j)` (the event as JSON) and `run(id)`; `$2` is `queue`.
 */
export interface RunJobInsert {
  queue: string;
  ctes: string;
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
// 3. the review job, written by SQL the queue module supplies (see RunJobInsert).
const statements = new Map<string, string>();
const statementFor = (job: RunJobInsert): string => {
  let text = statements.get(job.ctes);
  if (text === undefined) statements.set(job.ctes, (text = statement(job)));
  return text;
};
const statement = (job: RunJobInsert) => `
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
), ${job.ctes}
SELECT EXISTS (SELECT 1 FROM delivery) AS fresh, (SELECT id FROM run) AS run_id, (SELECT id FROM job)::text AS job_id,
  (SELECT present FROM queue_present) AS queue_exists`;

/**
 * Records a pull request delivery, applies it to the PR's run and queues the run's review. Null when the
 * delivery id was seen before (a redelivery: nothing changed); else the run's id and the new job's id,
 * null when a job for the run was already waiting (it reads the newest head when it starts).
 */
export async function recordPullRequestEvent(
  executeSql: ExecuteSql,
  e: PullRequestEvent,
  /** How the run's job is written: supplied by the queue module, which owns the job table. */
  job: RunJobInsert,
): Promise<{ runId: number; jobId: string | null } | null> {
  const { rows } = await executeSql(statementFor(job), [JSON.stringify(e), job.queue]);

  const row = rows[0] as
    { fresh: boolean; run_id: number | null; job_id: string | null; queue_exists: boolean } | undefined;
  // Without its queue row the job insert would silently do nothing (as pg-boss's send would).
  if (row && !row.queue_exists)
    throw new Error(`queue ${job.queue} does not exist; the queue must be started before deliveries are applied`);
  if (!row?.fresh) return null;
  if (row.run_id === null)
    throw new Error(`delivery ${e.deliveryId}: run for PR #${e.run.prNumber} neither written nor found`);
  return { runId: Number(row.run_id), jobId: row.job_id };
}
