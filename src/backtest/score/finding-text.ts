import type { BacktestFinding } from "../replay/backtest-finding.js";
import type { GoldenIssue } from "../prs/golden-pr.js";

/** A finding as the judge reads it: where, how severe, its title and its body. */
export function findingText(f: BacktestFinding): string {
  const at = f.path ? `${f.path}${f.line ? `:${f.line}` : ""}` : "(no location)";
  return `${at} [${f.severity}] ${f.title}\n${f.body}`.trim();
}

/** A real issue as the judge reads it: its words, and where when the golden file says. */
export function issueText(issue: GoldenIssue): string {
  const at = issue.path ? `${issue.path}${issue.line ? `:${issue.line}` : ""}\n` : "";
  return `${at}${issue.comment}`.trim();
}
