import { and, asc, eq, inArray, isNotNull, ne, or, sql, type SQL } from "drizzle-orm";
import type { Database } from "./database.js";
import { findingEvents, findings, runs } from "./schema.js";

/**
 * How someone with write access decided: `dismissed` (their `/no-mistakes dismiss` with a reason),
 * `argued` (the reviewer withdrew the finding on their argument), `confirmed` (they confirmed a withdrawal
 * the PR's author asked for), `merged` (they merged the PR the finding was fixed in).
 */
export type DecidedHow = "dismissed" | "argued" | "confirmed" | "merged";

/** A finding a person with write access decided on, with who it was and where. */
export interface RepositoryDecision {
  prNumber: number;
  /** The finding's number in its PR (NM-<number>). */
  number: number;
  title: string;
  path: string | null;
  severity: string;
  status: string;
  dismissReason: string | null;
  rulingReason: string | null;
  /** The finding's inline review comment (its thread), when it was posted inline. */
  commentId: number | null;
  /** The review that carried it (the finding in a review's body has no thread of its own). */
  reviewId: number | null;
  how: DecidedHow;
  /** The login of the writer who decided. */
  decidedBy: string;
  /** Where on the PR's page they decided (a pullRequestAnchor), when the ledger recorded it. */
  anchor: string | null;
  decidedAt: Date;
}

const isDismissed = sql`${findings.status} = 'dismissed'`;
const isFixed = sql`${findings.status} = 'fixed'`;
const isConfirmed = sql`${findings.rulingConfirmation} = 'confirmed'`;

/** The finding event that records the decision: the dismissal, the writer's confirmation, the ruling on a writer's argument. */
function decisionEvent(column: typeof findingEvents.actor | typeof findingEvents.url): SQL<string | null> {
  const kind = sql`case when ${isDismissed} then 'dismissed' when ${isConfirmed} then 'confirmed' else 'withdrawn' end`;
  return sql<string | null>`(select ${column} from ${findingEvents}
    where ${findingEvents.runId} = ${findings.runId} and ${findingEvents.findingNumber} = ${findings.number}
      and ${findingEvents.kind} = ${kind}
    order by ${findingEvents.id} desc limit 1)`;
}

const how = sql<DecidedHow>`case when ${isDismissed} then 'dismissed' when ${isFixed} then 'merged'
  when ${isConfirmed} then 'confirmed' else 'argued' end`;
// Only writers can dismiss or confirm (the command and the thread reply check), and a ruling counts as a
// writer's only when the person who argued had write access then (`ruling_confirmation = 'writer'`).
const decidedBy = sql<string | null>`case when ${isDismissed} then ${decisionEvent(findingEvents.actor)}
  when ${isFixed} then ${runs.mergedBy} when ${isConfirmed} then ${findings.rulingConfirmedBy}
  else ${findings.rulingBy} end`;
const anchor = sql<string | null>`case when ${isFixed} then null else ${decisionEvent(findingEvents.url)} end`;
const decidedAt = sql<Date>`case when ${isFixed} then ${runs.mergedAt} else ${findings.updatedAt} end`.mapWith(
  findings.updatedAt,
);

/**
 * Every decision a person with write access made on the repository's findings (all its pull requests) at
 * or after `since`, oldest first, at most `limit`: a dismissal with a reason, a withdrawal on a writer's
 * argument or with a writer's confirmation, a finding fixed in a PR that was merged. What the PR's author
 * alone argued, and what the ledger cannot name a writer for (rows from before it kept one), is not a
 * decision. The runs are found by `runs_repository_pr_unique` (repository first), their findings by
 * `findings_run_number_unique` and each finding's events by `finding_events_run_idx`.
 */
export async function listRepositoryDecisions(
  db: Database,
  repositoryId: number,
  since: Date,
  limit = 500,
): Promise<RepositoryDecision[]> {
  const rows = await db
    .select({
      prNumber: runs.prNumber,
      number: findings.number,
      title: findings.title,
      path: findings.path,
      severity: findings.severity,
      status: findings.status,
      dismissReason: findings.dismissReason,
      rulingReason: findings.rulingReason,
      commentId: findings.commentId,
      reviewId: findings.reviewId,
      how,
      decidedBy,
      anchor,
      decidedAt,
    })
    .from(runs)
    .innerJoin(findings, eq(findings.runId, runs.id))
    .where(
      and(
        eq(runs.repositoryId, repositoryId),
        or(
          and(eq(findings.status, "dismissed"), isNotNull(findings.dismissReason), ne(findings.dismissReason, "")),
          and(eq(findings.status, "withdrawn"), inArray(findings.rulingConfirmation, ["writer", "confirmed"])),
          and(eq(findings.status, "fixed"), isNotNull(runs.mergedAt)),
        ),
        sql`${decidedAt} >= ${since.toISOString()}::timestamptz`,
        sql`${decidedBy} is not null`,
      ),
    )
    .orderBy(asc(decidedAt), asc(runs.prNumber), asc(findings.number))
    .limit(limit);
  return rows.map((row) => ({ ...row, decidedBy: row.decidedBy! }));
}
