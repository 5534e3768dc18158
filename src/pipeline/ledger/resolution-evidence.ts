import type { Finding } from "../../db/schema.js";
import type { GitWorkspace } from "../../git/git-workspace.js";
import { touchesLines } from "./touches-lines.js";

/**
 * Evidence that a finding the reviewer calls resolved was worked on: the commits from where it was
 * raised to the reviewed head changed its lines (or its file, for a file-level finding). A claim
 * without it stays a claim: a reviewer steered by the PR cannot close findings by saying so.
 * `raisedAt` candidates are tried in order (the head it was raised at, then the last reviewed head);
 * when none is in the workspace, there is no evidence.
 */
export async function hasResolutionEvidence(
  workspace: GitWorkspace,
  finding: Finding,
  raisedAt: (string | null | undefined)[],
  head: string,
): Promise<boolean> {
  if (!finding.path) return false;
  for (const from of raisedAt) {
    if (!from || !(await workspace.hasCommit(from))) continue;
    const diff = (await workspace.diff(from, head, { paths: [finding.path], context: 0 })).text;
    return touchesLines(diff, finding.line, finding.endLine);
  }
  return false;
}
