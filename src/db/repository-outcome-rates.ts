import { and, eq, gte, ne, sql } from "drizzle-orm";
import type { Database } from "./database.js";
import { findings, runs } from "./schema.js";

/** A repository's posted findings since a date, and how many were fixed, or dismissed or withdrawn (noise). */
export interface OutcomeRates {
  posted: number;
  fixed: number;
  noise: number;
}

/** The scorecard's headline for one repository (see src/web/queries/read-scorecard.ts): one statement. */
export async function readRepositoryOutcomeRates(
  db: Database,
  repositoryId: number,
  since: Date,
): Promise<OutcomeRates> {
  const [row] = await db
    .select({
      posted: sql<number>`count(*)::int`,
      fixed: sql<number>`(count(*) filter (where ${findings.outcome} = 'fixed'))::int`,
      noise: sql<number>`(count(*) filter (where ${findings.outcome} in ('dismissed', 'withdrawn')))::int`,
    })
    .from(findings)
    .innerJoin(runs, eq(runs.id, findings.runId))
    .where(and(eq(runs.repositoryId, repositoryId), ne(findings.status, "note"), gte(findings.createdAt, since)));
  return row ?? { posted: 0, fixed: 0, noise: 0 };
}
