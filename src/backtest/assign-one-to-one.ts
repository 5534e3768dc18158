/** A candidate pairing of finding `finding` with real issue `issue`; higher `score` is a better match. */
export interface Candidate {
  finding: number;
  issue: number;
  score: number;
}

/**
 * A one-to-one assignment, greedy: the best-scored candidate first (ties: the earlier finding, then the
 * earlier issue), then the best among those left whose finding and issue are both still free. Not always
 * the largest matching, but each finding counts for at most one issue and each issue for at most one
 * finding, and the result is the same for the same input.
 */
export function assignOneToOne<T extends Candidate>(candidates: readonly T[]): T[] {
  const sorted = [...candidates].sort((x, y) => y.score - x.score || x.finding - y.finding || x.issue - y.issue);
  const findings = new Set<number>();
  const issues = new Set<number>();
  const chosen: T[] = [];
  for (const c of sorted) {
    if (findings.has(c.finding) || issues.has(c.issue)) continue;
    findings.add(c.finding);
    issues.add(c.issue);
    chosen.push(c);
  }
  return chosen.sort((x, y) => x.finding - y.finding);
}
