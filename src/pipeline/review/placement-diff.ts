import type { Finding } from "../../db/schema.js";
import type { GitWorkspace } from "../../git/git-workspace.js";
import { parseDiff, type DiffIndex } from "../../github/parse-diff.js";

/**
 * The PR's diff (merge-base..head, as GitHub shows it) for the files that carry findings to post: the
 * review's own diff when it covers that range, and the workspace's diff of just the other files
 * otherwise (a renamed file with its old path, so git sees the rename as GitHub does). Files `ignore.paths`
 * leaves out (`ignored`) are absent from both: a finding on one goes into the review's body, not inline.
 */
export async function placementDiff(
  workspace: GitWorkspace,
  ws: { from: string; mergeBase: string; headSha: string },
  reviewed: string,
  findings: Finding[],
  renames: ReadonlyMap<string, string>,
  ignored: readonly string[],
): Promise<DiffIndex> {
  const paths = [...new Set(findings.map((f) => f.path).filter((p): p is string => !!p))];
  if (paths.length === 0) return parseDiff("");
  // The review's diff holds whole files; ignored or omitted files are simply absent from it.
  const reused = ws.from === ws.mergeBase ? reviewed : "";
  const known = parseDiff(reused);
  const missing = paths.filter((p) => !known.files.has(p));
  if (missing.length === 0) return known;
  const rest = (
    await workspace.diff(ws.mergeBase, ws.headSha, { paths: missing, renamedFrom: renames, excludeGlobs: ignored })
  ).text;
  return parseDiff(reused === "" || reused.endsWith("\n") ? `${reused}${rest}` : `${reused}\n${rest}`);
}
