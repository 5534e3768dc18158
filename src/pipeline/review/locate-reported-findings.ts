import type { ReportedFinding } from "../ledger/reconcile-findings.js";
import { followRename } from "../ledger/follow-rename.js";
import { normalizePath } from "../ledger/normalize-path.js";
import type { ReviewHead } from "./review-turn.js";

/** The reviewer's findings as the ledger keys them, and what the reconciliation checks them against. */
export interface LocatedFindings {
  /** Renamed paths in the PR (old → new). */
  renames: ReadonlyMap<string, string>;
  /** The answer's findings, on renamed files' new paths; a finding on a submodule is about the whole file. */
  reported: ReportedFinding[];
  /** Lines of each reported path at the head (else at the merge base); 0 for a submodule. */
  lineCounts: Map<string, number | undefined>;
}

/**
 * The reviewer's findings placed in the PR: one on a renamed file's old path moves to the new one (its
 * `broken_by` too), and each path's lines are counted at the head, or at the merge base for a file the
 * PR deleted.
 */
export async function locateReportedFindings(head: ReviewHead, findings: ReportedFinding[]): Promise<LocatedFindings> {
  const { workspace, ws } = head;
  const renames = await workspace.renames(ws.mergeBase, ws.headSha);
  const reported = await Promise.all(
    findings.map(async (f) =>
      brokenByInRepo(await followRename(workspace, ws, renames, f, normalizePath(f.path)), renames),
    ),
  );
  const lineCounts = new Map<string, number | undefined>();
  for (const [i, f] of reported.entries()) {
    const path = normalizePath(f.path);
    if (path === undefined) continue;
    if (!lineCounts.has(path))
      lineCounts.set(
        path,
        (await workspace.lineCount(ws.headSha, path)) ?? (await workspace.lineCount(ws.mergeBase, path)),
      );
    // a submodule has no lines: a finding on it is about the bump as a whole
    if (
      lineCounts.get(path) === undefined &&
      ((await workspace.isSubmodule(ws.headSha, path)) || (await workspace.isSubmodule(ws.mergeBase, path)))
    ) {
      lineCounts.set(path, 0);
      reported[i] = { ...f, line: undefined, end_line: undefined, suggestion: undefined };
    }
  }
  return { renames, reported, lineCounts };
}

/** `broken_by` as the bot keys paths: repository-relative, on a renamed file's new path; dropped when it names no file in the repository. */
function brokenByInRepo(finding: ReportedFinding, renames: ReadonlyMap<string, string>): ReportedFinding {
  if (!finding.broken_by) return finding;
  const path = normalizePath(finding.broken_by.path);
  if (path === undefined) return { ...finding, broken_by: undefined };
  return { ...finding, broken_by: { path: renames.get(path) ?? path, line: finding.broken_by.line } };
}
