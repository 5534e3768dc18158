import { inArray, sql } from "drizzle-orm";
import type { Database } from "../../db/database.js";
import { scorecardRevisions } from "../../db/schema.js";
import { scorecardSince } from "../../domain/scorecard-period.js";
import type { Scorecard } from "../views/scorecard-view.js";
import { readScorecard, type ScorecardScope } from "./read-scorecard.js";

/** How many scopes (a repository, the operator's all) a cache keeps; the least recently read goes first. */
const KEPT_SCOPES = 64;

/**
 * readScorecard for one process's pages, each scope's scorecard kept while its repositories' revisions and its
 * period stay the same. Every commit that changes a run, finding or turn raises its repository's revision (the
 * `scorecard_revisions` table, kept by the database's triggers): whoever wrote it, from whichever process. The
 * revisions are read first, in a statement of their own, so a scorecard kept under them was read from the same
 * data or newer — never older. A revision is one indexed row per repository; the scorecard is three passes
 * over every finding and turn of the period.
 */
export function createScorecardCache(db: Database, kept = KEPT_SCOPES) {
  const entries = new Map<string, { key: string; scorecard: Scorecard }>();
  return async function cachedScorecard(scope: ScorecardScope, now = new Date()): Promise<Scorecard> {
    const scopeKey = scope === "all" ? "all" : [...scope.repositoryIds].sort((a, b) => a - b).join(",");
    const key = `${scorecardSince(now).toISOString()} ${await revisionOf(db, scope)}`;
    const entry = entries.get(scopeKey);
    entries.delete(scopeKey);
    if (entry?.key === key) {
      entries.set(scopeKey, entry);
      return structuredClone(entry.scorecard);
    }
    const scorecard = await readScorecard(db, scope, now);
    entries.set(scopeKey, { key, scorecard: structuredClone(scorecard) });
    if (entries.size > kept) entries.delete(entries.keys().next().value!);
    return scorecard;
  };
}

/**
 * The scope's revisions as one value: how many repositories have one and their sum. Revisions only rise and
 * their rows are never deleted, so any committed change makes a different value.
 */
async function revisionOf(db: Database, scope: ScorecardScope): Promise<string> {
  const [row] = await db
    .select({
      repositories: sql<number>`count(*)::int`,
      sum: sql<string>`coalesce(sum(${scorecardRevisions.revision}), 0)::text`,
    })
    .from(scorecardRevisions)
    .where(scope === "all" ? undefined : inArray(scorecardRevisions.repositoryId, scope.repositoryIds));
  return `${row?.repositories ?? 0}:${row?.sum ?? 0}`;
}
