import { assignOneToOne } from "./assign-one-to-one.js";
import type { BacktestFinding } from "../replay/backtest-finding.js";
import { findingText, issueText } from "./finding-text.js";
import type { GoldenIssue } from "../prs/golden-pr.js";
import type { Judge } from "../judge/judge.js";
import type { PrMatch } from "./pr-match.js";

/** How findings are matched to real issues: by the judge, or by location alone (no agent call). */
export type Matcher = { kind: "judge"; judge: Judge } | { kind: "location"; toleranceLines: number };

/**
 * The PR's findings matched one-to-one to its real issues (assignOneToOne: the most pairs, then the
 * highest total score). With the judge, every (finding, issue) pair is asked (cached), and the pairs it
 * calls the same are candidates scored by its confidence. By location, a finding matches an issue on the
 * same path within `toleranceLines` of its line (any line of the file when the issue names none), scored
 * by closeness; an issue without a path matches nothing.
 */
export async function matchPr(
  findings: readonly BacktestFinding[],
  issues: readonly GoldenIssue[],
  matcher: Matcher,
): Promise<{ matches: PrMatch[]; judgeCostUsd: number }> {
  const candidates: (PrMatch & { findingIndex: number })[] = [];
  let judgeCostUsd = 0;
  for (const [fi, f] of findings.entries()) {
    for (const [ii, issue] of issues.entries()) {
      if (matcher.kind === "judge") {
        const verdict = await matcher.judge.same(findingText(f), issueText(issue));
        judgeCostUsd += verdict.costUsd;
        if (verdict.same)
          candidates.push({
            findingIndex: fi,
            finding: f.id,
            issue: ii,
            score: verdict.confidence,
            by: "judge",
            reason: verdict.reason,
          });
      } else {
        const distance = locationDistance(f, issue);
        if (distance !== undefined && distance <= matcher.toleranceLines)
          candidates.push({
            findingIndex: fi,
            finding: f.id,
            issue: ii,
            score: 1 / (1 + distance),
            by: "location",
            reason: distance === 0 ? "same place" : `${distance} line${distance === 1 ? "" : "s"} apart`,
          });
      }
    }
  }
  const chosen = assignOneToOne(candidates.map((c) => ({ ...c, finding: c.findingIndex, id: c.finding })));
  return {
    matches: chosen.map(({ id, issue, score, by, reason }) => ({ finding: id, issue, score, by, reason })),
    judgeCostUsd,
  };
}

/** Lines between a finding and an issue on the same path (0 inside the finding's range or when the issue names no line); undefined on another path. */
function locationDistance(f: BacktestFinding, issue: GoldenIssue): number | undefined {
  if (!issue.path || !f.path || normalize(issue.path) !== normalize(f.path)) return undefined;
  if (issue.line === undefined || f.line === null) return 0;
  const end = f.endLine ?? f.line;
  if (issue.line >= f.line && issue.line <= end) return 0;
  return Math.min(Math.abs(issue.line - f.line), Math.abs(issue.line - end));
}

function normalize(path: string): string {
  return path.replace(/^\.?\/+/, "");
}
