import type { GitWorkspace } from "../../git/git-workspace.js";
import type { ReportedFinding } from "./reported-finding.js";
import { mapRenamedLine } from "./map-renamed-line.js";

/**
 * A finding reported on a renamed file's old path moves to its new path, as GitHub shows the PR;
 * its lines move with it when they survived the rename's edits, else it becomes a file-level finding
 * (tracked, posted in the review body).
 */
export async function followRename(
  workspace: GitWorkspace,
  range: { mergeBase: string; headSha: string },
  renames: ReadonlyMap<string, string>,
  finding: ReportedFinding,
  path: string | undefined,
): Promise<ReportedFinding> {
  const to = path === undefined ? undefined : renames.get(path);
  if (path === undefined || to === undefined) return finding;
  if (finding.line === undefined) return { ...finding, path: to };
  const diff = (await workspace.diff(range.mergeBase, range.headSha, { paths: [path, to], context: 0 })).text;
  const line = mapRenamedLine(diff, finding.line);
  if (line === undefined) return { ...finding, path: to, line: undefined, end_line: undefined, suggestion: undefined };
  const end = finding.end_line === undefined ? undefined : mapRenamedLine(diff, finding.end_line);
  return {
    ...finding,
    path: to,
    line,
    end_line: end,
    suggestion: end === undefined && finding.end_line !== undefined ? undefined : finding.suggestion,
  };
}
