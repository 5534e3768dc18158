import { and, asc, desc, inArray, isNotNull, sql, eq } from "drizzle-orm";
import type { Database } from "../../db/database.js";
import { findings, runs } from "../../db/schema.js";
import type { GoldenPr } from "./golden-pr.js";

/** Outcomes that are a team's verdict on a finding: fixed (a real issue), dismissed or withdrawn (not one). */
const DECIDED = ["fixed", "dismissed", "withdrawn"];

/**
 * A repository's own history as a golden file: each merged pull request with a finding the team decided
 * on, its real issues the findings that were fixed (what, how severe, where). Dismissed and withdrawn
 * findings are the team saying "not an issue": they are no golden issue, so a configuration that raises
 * them again loses precision. Newest merge first, at most `limit` PRs.
 */
export async function goldenFromHistory(db: Database, repositoryFullName: string, limit?: number): Promise<GoldenPr[]> {
  const rows = await db
    .select({
      prNumber: runs.prNumber,
      title: runs.title,
      fullName: runs.repositoryFullName,
      outcome: findings.outcome,
      severity: findings.severity,
      findingTitle: findings.title,
      body: findings.body,
      path: findings.path,
      line: findings.line,
    })
    .from(runs)
    .innerJoin(findings, eq(findings.runId, runs.id))
    .where(
      and(
        sql`lower(${runs.repositoryFullName}) = lower(${repositoryFullName})`,
        isNotNull(runs.mergedAt),
        inArray(findings.outcome, DECIDED),
      ),
    )
    .orderBy(desc(runs.mergedAt), desc(runs.prNumber), asc(findings.number));
  const prs = new Map<number, GoldenPr>();
  for (const r of rows) {
    let pr = prs.get(r.prNumber);
    if (!pr) {
      if (limit !== undefined && prs.size >= limit) continue;
      pr = { key: { text: `#${r.prNumber}`, number: r.prNumber, repo: r.fullName }, title: r.title, issues: [] };
      prs.set(r.prNumber, pr);
    }
    if (r.outcome !== "fixed") continue;
    pr.issues.push({
      comment: `${r.findingTitle}\n\n${r.body}`,
      severity: r.severity.toLowerCase(),
      ...(r.path !== null ? { path: r.path } : {}),
      ...(r.line !== null ? { line: r.line } : {}),
    });
  }
  return [...prs.values()];
}
