import type { ExecuteSql } from "../db/database.js";

/** Posted findings of one repository, agent and model with one outcome (`open`: none yet). */
export interface FindingOutcomeStat {
  repository: string;
  agent: string;
  model: string;
  outcome: string;
  count: number;
}

// A finding's agent and model are its introducing turn's; `unknown` when that turn is gone or did not say.
const FINDING_OUTCOME_STATS_SQL = `
  SELECT max(r.repository_full_name) AS repository, COALESCE(t.agent, 'unknown') AS agent,
    COALESCE(t.model, 'unknown') AS model, COALESCE(f.outcome, 'open') AS outcome, count(*)::int AS count
  FROM findings f
  JOIN runs r ON r.id = f.run_id
  LEFT JOIN turns t ON t.id = f.introduced_turn_id
  WHERE f.status <> 'note'
  GROUP BY r.repository_id, t.agent, t.model, f.outcome
  ORDER BY 1, 2, 3, 4`;

/**
 * Every posted finding (notes are never posted) by repository, agent, model and outcome, in one statement
 * (plain SQL through the handle's `executeSql`: PostgreSQL and PGlite alike).
 */
export async function findingOutcomeStats(executeSql: ExecuteSql): Promise<FindingOutcomeStat[]> {
  const { rows } = await executeSql(FINDING_OUTCOME_STATS_SQL, []);
  return rows.map((row) => ({
    repository: String(row.repository),
    agent: String(row.agent),
    model: String(row.model),
    outcome: String(row.outcome),
    count: Number(row.count),
  }));
}
