// The backtest's score room: each finding matched to the PR's real issues (matchPr, by the judge or by
// location), a PR's counts (scorePr, this file), precision and recall per configuration, the A/B difference
// with its bootstrap interval, and report.csv's rows. It imports the prs, replay and judge rooms.

import type { GoldenIssue } from "../prs/golden-pr.js";
import type { PrMatch } from "./pr-match.js";
import type { PrReviewResult } from "../replay/pr-review-result.js";
import { reproductionOf, type Reproduction, type ReproductionCount } from "./reproduction-count.js";
import type { ScoredPr, SeverityCount } from "./scored-pr.js";

/**
 * One PR's counts: raised findings (notes apart), real issues, and which of each the matches cover, by
 * the finding's severity for precision and by the real issue's severity for recall, and apart for the findings
 * the app reproduced and the rest.
 */
export function scorePr(
  result: PrReviewResult,
  issues: readonly GoldenIssue[] | undefined,
  matches: readonly PrMatch[],
  judgeCostUsd: number,
): ScoredPr {
  const raised = result.findings.filter((f) => f.placement !== "note");
  const matchedFindings = new Set(matches.map((m) => m.finding));
  const matchedIssues = new Set(matches.map((m) => m.issue));
  const byFindingSeverity: Record<string, SeverityCount> = {};
  for (const f of raised) add(byFindingSeverity, f.severity, matchedFindings.has(f.id));
  const byGoldenSeverity: Record<string, SeverityCount> = {};
  for (const [i, issue] of (issues ?? []).entries()) add(byGoldenSeverity, issue.severity, matchedIssues.has(i));
  return {
    prId: result.prId,
    raised: raised.length,
    notes: result.findings.length - raised.length,
    ...(issues ? { golden: issues.length } : {}),
    matchedFindings: raised.filter((f) => matchedFindings.has(f.id)).length,
    matchedGolden: matchedIssues.size,
    byFindingSeverity,
    byGoldenSeverity,
    byReproduction: byReproduction(raised, matches),
    matches: [...matches],
    costUsd: result.costUsd,
    judgeCostUsd,
    wallMs: result.wallMs,
    ...(result.skipped ? { skipped: result.skipped } : {}),
  };
}

/** Each side's raised findings, those matched, and the real issues its findings matched (each once). */
function byReproduction(
  raised: PrReviewResult["findings"],
  matches: readonly PrMatch[],
): Record<Reproduction, ReproductionCount> {
  const split: Record<Reproduction, ReproductionCount> = {
    reproduced: { raised: 0, matchedFindings: 0, matchedGolden: 0 },
    unreproduced: { raised: 0, matchedFindings: 0, matchedGolden: 0 },
  };
  const issuesOf: Record<Reproduction, Set<number>> = { reproduced: new Set(), unreproduced: new Set() };
  for (const f of raised) {
    const side = reproductionOf(f);
    const own = matches.filter((m) => m.finding === f.id);
    split[side].raised++;
    if (own.length > 0) split[side].matchedFindings++;
    for (const m of own) issuesOf[side].add(m.issue);
  }
  for (const side of ["reproduced", "unreproduced"] as const) split[side].matchedGolden = issuesOf[side].size;
  return split;
}

function add(counts: Record<string, SeverityCount>, severity: string, matched: boolean): void {
  const c = (counts[severity] ??= { n: 0, matched: 0 });
  c.n++;
  if (matched) c.matched++;
}
