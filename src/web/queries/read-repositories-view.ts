import { and, gte, inArray, ne, sql, type SQL } from "drizzle-orm";
import type { Database } from "../../db/database.js";
import { findings, runs, turns } from "../../db/schema.js";
import type { RepositoriesView, RepositorySummary } from "../views/repositories-view.js";

const DAY_MS = 24 * 60 * 60 * 1000;

/** The statuses that count against a PR (the ledger's live findings). */
export const OPEN_FINDING_STATUSES = ["open", "fix-pushed"];

/**
 * The home page: of `repositoryIds` (those the person can read), the ones the app has runs for, newest
 * activity first. Three aggregate queries whatever the number of repositories, PRs or turns. A PR is open
 * unless its run is closed (a paused PR is still open on GitHub).
 */
export async function readRepositoriesView(
  db: Database,
  repositoryIds: number[],
  now: Date = new Date(),
): Promise<RepositoriesView> {
  if (repositoryIds.length === 0) return { repositories: [] };
  const inRepositories = inArray(runs.repositoryId, repositoryIds);
  const [pulls, open, spend] = await Promise.all([
    pullRequestsOf(db, inRepositories),
    openFindingsOf(db, inRepositories),
    spendOf(db, inRepositories, now),
  ]);
  const openBy = new Map(open.map((r) => [r.repositoryId, r]));
  const spendBy = new Map(spend.map((r) => [r.repositoryId, r]));
  const repositories = pulls.map((p): RepositorySummary => {
    const o = openBy.get(p.repositoryId);
    const s = spendBy.get(p.repositoryId);
    const lastTurnAt = s?.lastTurnAt ?? null;
    return {
      repositoryId: p.repositoryId,
      fullName: p.fullName,
      openPullRequestsWithFindings: o?.openPullRequestsWithFindings ?? 0,
      openPullRequests: p.openPullRequests,
      openFindings: o?.openFindings ?? 0,
      spendWeekUsd: s?.week ?? 0,
      spendMonthUsd: s?.month ?? 0,
      lastActivityAt: lastTurnAt && lastTurnAt > p.updatedAt ? lastTurnAt : p.updatedAt,
    };
  });
  repositories.sort(
    (a, b) =>
      (b.lastActivityAt?.getTime() ?? 0) - (a.lastActivityAt?.getTime() ?? 0) || a.fullName.localeCompare(b.fullName),
  );
  return { repositories };
}

/** Per repository: its current name, open PRs and last run update. */
function pullRequestsOf(db: Database, inRepositories: SQL) {
  return db
    .select({
      repositoryId: runs.repositoryId,
      // the newest run's name: a renamed repository shows its current name
      fullName: sql<string>`(array_agg(${runs.repositoryFullName} order by ${runs.updatedAt} desc, ${runs.id} desc))[1]`,
      openPullRequests: sql<number>`count(*) filter (where ${runs.state} <> 'closed')::int`,
      updatedAt: sql<Date>`max(${runs.updatedAt})`.mapWith(runs.updatedAt),
    })
    .from(runs)
    .where(inRepositories)
    .groupBy(runs.repositoryId);
}

/** Per repository: the open PRs' open findings, and how many open PRs have one. */
function openFindingsOf(db: Database, inRepositories: SQL) {
  return db
    .select({
      repositoryId: runs.repositoryId,
      openFindings: sql<number>`count(*)::int`,
      openPullRequestsWithFindings: sql<number>`count(distinct ${runs.id})::int`,
    })
    .from(findings)
    .innerJoin(runs, sql`${runs.id} = ${findings.runId}`)
    .where(and(inRepositories, ne(runs.state, "closed"), inArray(findings.status, OPEN_FINDING_STATUSES)))
    .groupBy(runs.repositoryId);
}

/** Per repository: the last 7 and 30 days' spend and its last turn. */
function spendOf(db: Database, inRepositories: SQL, now: Date) {
  const week = new Date(now.getTime() - 7 * DAY_MS);
  const month = new Date(now.getTime() - 30 * DAY_MS);
  return (
    db
      .select({
        repositoryId: runs.repositoryId,
        week: sql<number>`coalesce(sum(${turns.costUsd}) filter (where ${turns.startedAt} >= ${week.toISOString()}::timestamptz), 0)::float8`,
        month: sql<number>`coalesce(sum(${turns.costUsd}), 0)::float8`,
        lastTurnAt: sql<Date | null>`max(${turns.startedAt})`.mapWith(turns.startedAt),
      })
      .from(turns)
      .innerJoin(runs, sql`${runs.id} = ${turns.runId}`)
      // only the last 30 days' turns: the page's cost stays the same as a repository's history grows (an
      // older last turn is no later than its run's update, which stands for the activity then)
      .where(and(inRepositories, gte(turns.startedAt, month)))
      .groupBy(runs.repositoryId)
  );
}
