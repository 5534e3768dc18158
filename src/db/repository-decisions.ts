import { and, asc, eq, gte, isNotNull, ne, notInArray, or } from "drizzle-orm";
import type { Database } from "./database.js";
import { findings, runs } from "./schema.js";

/** A finding the team decided on: dismissed with a reason, withdrawn after an argument, or upheld in its thread. */
export interface RepositoryDecision {
  prNumber: number;
  /** The finding's number in its PR (NM-<number>). */
  number: number;
  title: string;
  path: string | null;
  severity: string;
  status: string;
  dismissReason: string | null;
  ruling: string | null;
  rulingReason: string | null;
  /** The finding's inline review comment (its thread), when it was posted inline. */
  commentId: number | null;
  /** The review that carried it (the finding in a review's body has no thread of its own). */
  reviewId: number | null;
  decidedAt: Date;
}

/**
 * Every decision on the repository's findings (all its pull requests) last changed at or after `since`,
 * oldest first, at most `limit`. The runs are found by `runs_repository_pr_unique` (repository first)
 * and their findings by `findings_run_number_unique` (run first): a repository's rows, nothing else.
 */
export async function listRepositoryDecisions(
  db: Database,
  repositoryId: number,
  since: Date,
  limit = 500,
): Promise<RepositoryDecision[]> {
  return db
    .select({
      prNumber: runs.prNumber,
      number: findings.number,
      title: findings.title,
      path: findings.path,
      severity: findings.severity,
      status: findings.status,
      dismissReason: findings.dismissReason,
      ruling: findings.ruling,
      rulingReason: findings.rulingReason,
      commentId: findings.commentId,
      reviewId: findings.reviewId,
      decidedAt: findings.updatedAt,
    })
    .from(runs)
    .innerJoin(findings, eq(findings.runId, runs.id))
    .where(
      and(
        eq(runs.repositoryId, repositoryId),
        gte(findings.updatedAt, since),
        or(
          and(eq(findings.status, "dismissed"), isNotNull(findings.dismissReason), ne(findings.dismissReason, "")),
          eq(findings.status, "withdrawn"),
          and(eq(findings.ruling, "upheld"), notInArray(findings.status, ["dismissed", "note"])),
        ),
      ),
    )
    .orderBy(asc(findings.updatedAt), asc(runs.prNumber), asc(findings.number))
    .limit(limit);
}
