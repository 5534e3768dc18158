import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "../../db/database.js";
import { findings, runs, turns } from "../../db/schema.js";
import type { PullRequestRow, PullRequestState, RepositoryFilter, RepositoryView } from "../views/repository-view.js";
import { OPEN_FINDING_STATUSES } from "./read-repositories-view.js";

/**
 * A repository's page: its PRs matching the filter, newest activity first, one page of `pageSize`; the
 * page's open findings by severity and turns and spend by aggregate queries over the page's runs. Six
 * queries whatever the repository's size. A repository the app has no run in reads as empty (its name "").
 */
export async function readRepositoryView(
  db: Database,
  repositoryId: number,
  filter: RepositoryFilter,
  pageSize = 50,
): Promise<RepositoryView> {
  const page = Math.max(1, Math.floor(filter.page) || 1);
  const { fullName, total, authors, pageRuns } = await readRunsPage(db, repositoryId, filter, page, pageSize);
  const ids = pageRuns.map((r) => r.id);
  const [severities, spend] =
    ids.length === 0 ? [[], []] : await Promise.all([openBySeverity(db, ids), spendOf(db, ids)]);
  return {
    repositoryId,
    fullName,
    filter: { ...filter, page },
    pullRequests: pullRequestRows(pageRuns, severities, spend),
    total,
    pageSize,
    authors,
  };
}

type PageRun = Awaited<ReturnType<typeof readRunsPage>>["pageRuns"][number];

/** The repository's name (its newest run's), how many runs match, every author, and the page's runs. */
async function readRunsPage(
  db: Database,
  repositoryId: number,
  filter: RepositoryFilter,
  page: number,
  pageSize: number,
) {
  const matching = and(
    eq(runs.repositoryId, repositoryId),
    filter.state === "all" ? undefined : eq(runs.state, filter.state),
    filter.author === undefined ? undefined : sql`lower(${runs.authorLogin}) = lower(${filter.author})`,
  );
  const [named, [counted], authors, pageRuns] = await Promise.all([
    db
      .select({ fullName: runs.repositoryFullName })
      .from(runs)
      .where(eq(runs.repositoryId, repositoryId))
      .orderBy(desc(runs.updatedAt), desc(runs.id))
      .limit(1),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(runs)
      .where(matching),
    db.selectDistinct({ author: runs.authorLogin }).from(runs).where(eq(runs.repositoryId, repositoryId)),
    db
      .select({
        id: runs.id,
        number: runs.prNumber,
        title: runs.title,
        author: runs.authorLogin,
        state: runs.state,
        draft: runs.draft,
        headSha: runs.headSha,
        lastReviewedSha: runs.lastReviewedSha,
        updatedAt: runs.updatedAt,
      })
      .from(runs)
      .where(matching)
      .orderBy(desc(runs.updatedAt), desc(runs.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
  ]);
  return {
    fullName: named[0]?.fullName ?? "",
    total: counted?.total ?? 0,
    authors: authors
      .map((a) => a.author)
      .filter((a) => a !== "")
      .sort((a, b) => a.localeCompare(b)),
    pageRuns,
  };
}

/** The page's runs as the page lists them, with their open findings by severity, turns and spend. */
function pullRequestRows(
  pageRuns: PageRun[],
  severities: Awaited<ReturnType<typeof openBySeverity>>,
  spend: Awaited<ReturnType<typeof spendOf>>,
): PullRequestRow[] {
  const openBy = new Map<number, PullRequestRow["openFindings"]>();
  for (const s of severities) {
    const counts = openBy.get(s.runId) ?? { error: 0, warning: 0, info: 0 };
    if (s.severity === "error" || s.severity === "warning" || s.severity === "info") counts[s.severity] = s.count;
    openBy.set(s.runId, counts);
  }
  const spendBy = new Map(spend.map((s) => [s.runId, s]));
  return pageRuns.map((r) => ({
    number: r.number,
    title: r.title,
    author: r.author,
    state: r.state as PullRequestState,
    draft: r.draft,
    openFindings: openBy.get(r.id) ?? { error: 0, warning: 0, info: 0 },
    headSha: r.headSha,
    lastReviewedSha: r.lastReviewedSha,
    turns: spendBy.get(r.id)?.turns ?? 0,
    spendUsd: spendBy.get(r.id)?.spendUsd ?? 0,
    updatedAt: r.updatedAt,
  }));
}

function openBySeverity(db: Database, runIds: number[]) {
  return db
    .select({ runId: findings.runId, severity: findings.severity, count: sql<number>`count(*)::int` })
    .from(findings)
    .where(and(inArray(findings.runId, runIds), inArray(findings.status, OPEN_FINDING_STATUSES)))
    .groupBy(findings.runId, findings.severity);
}

function spendOf(db: Database, runIds: number[]) {
  return db
    .select({
      runId: turns.runId,
      turns: sql<number>`count(*)::int`,
      spendUsd: sql<number>`coalesce(sum(${turns.costUsd}), 0)::float8`,
    })
    .from(turns)
    .where(inArray(turns.runId, runIds))
    .groupBy(turns.runId);
}
