import type { GitWorkspace } from "../../git/git-workspace.js";
import { changedLines, intersectChanges, type ChangedLines } from "../workspace/changed-lines.js";

/**
 * What the pull request's own changes touched from the last reviewed head `since` to the head: the lines
 * changed in since..head that are also part of the PR's diff against its base (merge base..head). What a
 * merge of the base (or a rebase onto it) brought in is not the PR's own and is left out; a rename counts
 * only for the lines it edited. Nothing changed when `since` is the head.
 */
export async function changedSince(
  workspace: GitWorkspace,
  since: string,
  at: { mergeBase: string; headSha: string },
): Promise<ChangedLines> {
  if (since === at.headSha) return new Map();
  const [sinceLast, own] = await Promise.all([
    workspace.diff(since, at.headSha, { context: 0 }),
    workspace.diff(at.mergeBase, at.headSha, { context: 0 }),
  ]);
  return intersectChanges(changedLines(sinceLast.text), changedLines(own.text));
}
