import type { PullRequestRunFields } from "../domain/pull-request.js";
import type { ExecuteSql } from "./database.js";
import { firstDeliveryOfBodySql } from "./webhook-deliveries.js";

/**
 * SQL that queues the runs' jobs inside the pull request statement: CTEs `job(id, singleton_key)` (the jobs
 * written, `singleton_key` the run's id as text; no row for a run whose job is already waiting) and
 * `queue_present(present)` (whether the queue exists), reading the CTE `run(id, j)` — a run to queue and
 * the event (as JSON) that asks for it, one row per run; `$2` is `queue`.
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
  /** False: the event only refreshes the run (a label added) and queues nothing. */
  queue?: boolean;
  /** The digest of the delivery's body, when known: see recordDelivery. */
  bodyDigest?: string;
}

/**
 * What one event did: null when its delivery id was seen before (a redelivery: nothing changed); `replayOf`
 * when its body was applied under that delivery id within the window (recorded, nothing else changed).
 */
export type PullRequestEventOutcome = { runId: number; jobId: string | null } | { replayOf: string } | null;

// One statement with one parameter (the events as a JSON array: nothing for the driver to encode field by
// field) — one round trip for any number of events, planned once per connection, atomic without BEGIN/COMMIT:
// 1. the delivery ids (a redelivered id stops everything below for its event: each step reads the one before;
//    so does a replay — a body applied under another id within the window — whose row is kept naming the first);
// 2. each event's run created or refreshed — never by an event older than the newest one applied (GitHub
//    does not promise delivery order); an older event leaves the run as it is but still queues a look at it;
// 3. a reopened PR's abandoned findings are open again (no outcome: src/db/finding-outcomes.ts);
// 4. the review jobs of the events that ask for one (not `queue: false`), written by SQL the queue module
//    supplies (see RunJobInsert).
// Events of one call name distinct deliveries and distinct pull requests (recordPullRequestEvents checks):
// they touch distinct rows, so applying them together is applying them one after the other.
const statements = new Map<string, string>();
const statementFor = (job: RunJobInsert): string => {
  let text = statements.get(job.ctes);
  if (text === undefined) statements.set(job.ctes, (text = statement(job)));
  return text;
};
const statement = (job: RunJobInsert) => `
WITH e AS (
  SELECT t.ord, t.j, t.j -> 'run' AS r, (t.j -> 'run' ->> 'repositoryId')::bigint AS repository_id,
    (t.j -> 'run' ->> 'prNumber')::integer AS pr_number
  FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS t(j, ord)
), delivery AS (
  INSERT INTO webhook_deliveries (delivery_id, event, body_digest, replay_of)
  SELECT j ->> 'deliveryId', j ->> 'event', j ->> 'bodyDigest', ${firstDeliveryOfBodySql("e.j ->> 'bodyDigest'")}
  FROM e ORDER BY ord
  ON CONFLICT DO NOTHING
  RETURNING delivery_id, replay_of
), fresh AS (
  SELECT e.* FROM e JOIN delivery ON delivery.delivery_id = e.j ->> 'deliveryId' AND delivery.replay_of IS NULL
), upserted AS (
  INSERT INTO runs AS run (installation_id, repository_id, repository_full_name, clone_url, pr_number, title, body, author_login,
    author_type, base_ref, base_sha, head_ref, head_sha, head_repo_full_name, head_clone_url, maintainer_can_modify, draft, labels, pr_updated_at)
  SELECT (r ->> 'installationId')::bigint, repository_id, r ->> 'repositoryFullName', r ->> 'cloneUrl',
    pr_number, r ->> 'title', r ->> 'body', r ->> 'authorLogin', COALESCE(r ->> 'authorType', ''), r ->> 'baseRef', r ->> 'baseSha',
    r ->> 'headRef', r ->> 'headSha', r ->> 'headRepoFullName', r ->> 'headCloneUrl', (r ->> 'maintainerCanModify')::boolean,
    (r ->> 'draft')::boolean, COALESCE(r -> 'labels', '[]'::jsonb), (r ->> 'prUpdatedAt')::timestamptz
  FROM fresh ORDER BY ord
  ON CONFLICT (repository_id, pr_number) DO UPDATE SET
    installation_id = excluded.installation_id, repository_full_name = excluded.repository_full_name, clone_url = excluded.clone_url,
    title = excluded.title, body = excluded.body, author_login = excluded.author_login,
    author_type = CASE WHEN excluded.author_type = '' THEN run.author_type ELSE excluded.author_type END,
    base_ref = excluded.base_ref, base_sha = excluded.base_sha, head_ref = excluded.head_ref, head_sha = excluded.head_sha,
    head_repo_full_name = excluded.head_repo_full_name, head_clone_url = excluded.head_clone_url,
    maintainer_can_modify = excluded.maintainer_can_modify, draft = excluded.draft, labels = excluded.labels,
    pr_updated_at = excluded.pr_updated_at,
    state = CASE
      WHEN run.state = 'closed' AND EXISTS (SELECT 1 FROM fresh WHERE fresh.repository_id = excluded.repository_id
        AND fresh.pr_number = excluded.pr_number AND fresh.j ->> 'action' = 'reopened') THEN 'open'
      ELSE run.state END,
    updated_at = now()
  WHERE run.pr_updated_at IS NULL OR excluded.pr_updated_at IS NULL OR excluded.pr_updated_at >= run.pr_updated_at
  RETURNING id, repository_id, pr_number, (SELECT state FROM runs WHERE runs.id = run.id) = 'closed' AND run.state = 'open' AS reopened
), unabandoned AS (
  UPDATE findings SET outcome = NULL, outcome_at = NULL
  FROM upserted JOIN fresh USING (repository_id, pr_number)
  WHERE findings.run_id = upserted.id AND upserted.reopened AND findings.outcome = 'abandoned'
), touched AS (
  SELECT upserted.id, fresh.j FROM upserted JOIN fresh USING (repository_id, pr_number)
  UNION ALL
  SELECT runs.id, fresh.j FROM runs JOIN fresh USING (repository_id, pr_number)
  WHERE NOT EXISTS (SELECT 1 FROM upserted WHERE upserted.repository_id = runs.repository_id AND upserted.pr_number = runs.pr_number)
), run AS (
  SELECT id, j FROM touched WHERE (j ->> 'queue')::boolean IS DISTINCT FROM false
), ${job.ctes}
SELECT e.ord, fresh.ord IS NOT NULL AS fresh, delivery.replay_of, touched.id AS run_id, job.id::text AS job_id,
  (SELECT present FROM queue_present) AS queue_exists
FROM e
  LEFT JOIN delivery ON delivery.delivery_id = e.j ->> 'deliveryId'
  LEFT JOIN fresh ON fresh.ord = e.ord
  LEFT JOIN touched ON fresh.ord IS NOT NULL AND touched.j ->> 'deliveryId' = e.j ->> 'deliveryId'
  LEFT JOIN job ON job.singleton_key = touched.id::text
ORDER BY e.ord`;

/** Which pull request an event is about, as the statement tells them apart (events of one call differ in it). */
export function pullRequestKey(run: Pick<PullRequestRunFields, "repositoryId" | "prNumber">): string {
  return `${run.repositoryId}#${run.prNumber}`;
}

/** Whether `events` may be recorded by one statement: distinct delivery ids and distinct pull requests. */
export function recordableTogether(events: readonly Pick<PullRequestEvent, "deliveryId" | "run">[]): boolean {
  const deliveries = new Set(events.map((e) => e.deliveryId));
  const pullRequests = new Set(events.map((e) => pullRequestKey(e.run)));
  return deliveries.size === events.length && pullRequests.size === events.length;
}

/**
 * Records pull request deliveries, applies each to its PR's run and queues the runs' reviews — one
 * statement, so all or nothing. Per event, in order: null when the delivery id was seen before (a
 * redelivery: nothing changed); `replayOf` for a replay (recorded, nothing else changed); else the run's id and the new job's id, null when a job for the run was
 * already waiting (it reads the newest head when it starts). The events must be `recordableTogether`.
 */
export async function recordPullRequestEvents(
  executeSql: ExecuteSql,
  events: readonly PullRequestEvent[],
  /** How the runs' jobs are written: supplied by the queue module, which owns the job table. */
  job: RunJobInsert,
): Promise<PullRequestEventOutcome[]> {
  if (events.length === 0) return [];
  if (!recordableTogether(events))
    throw new Error("pull request events recorded together must name distinct deliveries and pull requests");
  const { rows } = await executeSql(statementFor(job), [JSON.stringify(events), job.queue]);
  const results = rows as {
    fresh: boolean;
    replay_of: string | null;
    run_id: number | null;
    job_id: string | null;
    queue_exists: boolean;
  }[];
  if (results.length !== events.length)
    throw new Error(`recorded ${results.length} outcomes for ${events.length} pull request events`);
  // Without its queue row the job insert would silently do nothing (as pg-boss's send would).
  if (!results[0]!.queue_exists)
    throw new Error(`queue ${job.queue} does not exist; the queue must be started before deliveries are applied`);
  return results.map((row, i) => {
    if (row.replay_of !== null) return { replayOf: row.replay_of };
    if (!row.fresh) return null;
    if (row.run_id === null)
      throw new Error(
        `delivery ${events[i]!.deliveryId}: run for PR #${events[i]!.run.prNumber} neither written nor found`,
      );
    return { runId: Number(row.run_id), jobId: row.job_id };
  });
}
