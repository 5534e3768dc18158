import { sql, type SQL } from "drizzle-orm";
import type { Database } from "./database.js";

/** What finally became of a posted finding; a finding without one is still open on an open PR, or a note. */
export type FindingOutcome = "fixed" | "dismissed" | "withdrawn" | "open-at-merge" | "abandoned";

export const FINDING_OUTCOMES: readonly FindingOutcome[] = [
  "fixed",
  "dismissed",
  "withdrawn",
  "open-at-merge",
  "abandoned",
];

/**
 * The rule, as SQL over a finding `f` and its run `r` — the one place it is written (the migration that
 * added the columns back-fills with this same text, and test/db/finding-outcomes.test.ts holds it to that):
 * - a note was never posted: no outcome;
 * - fixed (its lines changed after it was raised, or the verifier confirmed the fixer's claim), dismissed by
 *   a writer, withdrawn after an argument: that status, whatever became of the PR;
 * - anything else (open, fix-pushed, deferred, outdated) is open at merge once GitHub merged the PR,
 *   abandoned once it was closed unmerged, and has no outcome while the PR is open (or paused).
 */
export const OUTCOME_SQL = `CASE
    WHEN f.status = 'note' THEN NULL
    WHEN f.status IN ('fixed', 'dismissed', 'withdrawn') THEN f.status
    WHEN r.merged_at IS NOT NULL THEN 'open-at-merge'
    WHEN r.state = 'closed' THEN 'abandoned'
  END`;

/**
 * When the event that decided it happened: for a status, its latest event of that kind or the confirmation
 * that made it count (a verifier's, a writer's 👍), else the row's last change; the merge; for an abandoned
 * finding the run's last change (closing it is the last thing that happens to a closed run).
 */
export const OUTCOME_AT_SQL = `CASE
    WHEN f.status IN ('fixed', 'dismissed', 'withdrawn') THEN COALESCE(
      (SELECT max(e.created_at) FROM finding_events e
        WHERE e.run_id = f.run_id AND e.finding_number = f.number AND e.kind IN (f.status, 'confirmed')),
      f.updated_at)
    WHEN r.merged_at IS NOT NULL THEN r.merged_at
    ELSE r.updated_at
  END`;

/**
 * The UPDATE that brings findings' outcomes up to date, for the findings `scope` selects (SQL over `f`).
 * Nothing is written for a finding whose outcome and its time did not move.
 */
export function refreshOutcomesSql(scope: string): string {
  return `UPDATE findings AS t SET outcome = d.outcome, outcome_at = d.outcome_at
FROM (
  SELECT f.id, o.outcome, CASE WHEN o.outcome IS NULL THEN NULL ELSE ${OUTCOME_AT_SQL} END AS outcome_at
  FROM findings f JOIN runs r ON r.id = f.run_id
  CROSS JOIN LATERAL (SELECT ${OUTCOME_SQL} AS outcome) o
  WHERE ${scope}
) d
WHERE t.id = d.id AND (t.outcome, t.outcome_at) IS DISTINCT FROM (d.outcome, d.outcome_at)`;
}

const SCOPE = "/* scope */";

/**
 * Recomputes the outcomes of a run's findings (of one finding when `number` is given). Called by every
 * write that moves what they depend on: a finding's status (src/db/findings.ts) and a run's state or merge
 * (src/db/runs.ts; a reopened PR in src/db/record-pull-request-event.ts).
 */
export async function refreshFindingOutcomes(db: Database, runId: number, number?: number): Promise<void> {
  const scope: SQL =
    number === undefined ? sql`f.run_id = ${runId}` : sql`f.run_id = ${runId} AND f.number = ${number}`;
  const [before, after] = refreshOutcomesSql(SCOPE).split(SCOPE) as [string, string];
  await db.execute(sql.join([sql.raw(before), scope, sql.raw(after)]));
}
