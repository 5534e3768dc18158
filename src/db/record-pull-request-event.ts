import type { ExecuteSql } from "./database.js";

export interface PullRequestEvent {
  deliveryId: string;
  event: string;
  /** A `reopened` event: a closed run opens again. */
  reopen: boolean;
  run: {
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
    prUpdatedAt: string | null;
  };
}

// One statement (one round trip, planned once per connection): the delivery id, then — only when that id
// is new — the run created or refreshed, but never by an event older than the newest one applied (GitHub
// does not promise delivery order). The run's id comes back either way.
const STATEMENT = `
WITH delivery AS (
  INSERT INTO webhook_deliveries (delivery_id, event) VALUES ($1::text, $2::text)
  ON CONFLICT DO NOTHING
  RETURNING delivery_id
), upserted AS (
  INSERT INTO runs AS r (installation_id, repository_id, repository_full_name, clone_url, pr_number, title, body, author_login,
    base_ref, base_sha, head_ref, head_sha, head_repo_full_name, head_clone_url, maintainer_can_modify, draft, pr_updated_at)
  SELECT $3::bigint, $4::bigint, $5::text, $6::text, $7::integer, $8::text, $9::text, $10::text,
    $11::text, $12::text, $13::text, $14::text, $15::text, $16::text, $17::boolean, $18::boolean, $19::timestamptz
  FROM delivery
  ON CONFLICT (repository_id, pr_number) DO UPDATE SET
    installation_id = excluded.installation_id, repository_full_name = excluded.repository_full_name, clone_url = excluded.clone_url,
    title = excluded.title, body = excluded.body, author_login = excluded.author_login,
    base_ref = excluded.base_ref, base_sha = excluded.base_sha, head_ref = excluded.head_ref, head_sha = excluded.head_sha,
    head_repo_full_name = excluded.head_repo_full_name, head_clone_url = excluded.head_clone_url,
    maintainer_can_modify = excluded.maintainer_can_modify, draft = excluded.draft, pr_updated_at = excluded.pr_updated_at,
    state = CASE WHEN $20::boolean AND r.state = 'closed' THEN 'open' ELSE r.state END,
    updated_at = now()
  WHERE r.pr_updated_at IS NULL OR excluded.pr_updated_at IS NULL OR excluded.pr_updated_at >= r.pr_updated_at
  RETURNING id
)
SELECT EXISTS (SELECT 1 FROM delivery) AS fresh,
  COALESCE((SELECT id FROM upserted), (SELECT id FROM runs WHERE repository_id = $4::bigint AND pr_number = $7::integer)) AS run_id`;

/**
 * Records a pull request delivery and applies it to the PR's run. Null when the delivery id was seen
 * before (a redelivery: nothing changed); else the run's id (also when the event was older than the run
 * and left it as it was).
 */
export async function recordPullRequestEvent(executeSql: ExecuteSql, e: PullRequestEvent): Promise<{ runId: number } | null> {
  const r = e.run;
  const { rows } = await executeSql(STATEMENT, [
    e.deliveryId, e.event,
    r.installationId, r.repositoryId, r.repositoryFullName, r.cloneUrl, r.prNumber, r.title, r.body, r.authorLogin,
    r.baseRef, r.baseSha, r.headRef, r.headSha, r.headRepoFullName, r.headCloneUrl, r.maintainerCanModify, r.draft, r.prUpdatedAt,
    e.reopen,
  ]);
  const row = rows[0] as { fresh: boolean; run_id: number | null } | undefined;
  if (!row?.fresh) return null;
  if (row.run_id === null) throw new Error(`delivery ${e.deliveryId}: run for PR #${r.prNumber} neither written nor found`);
  return { runId: Number(row.run_id) };
}
