// The workspace room: the run's checkout made ready for an agent — the PR fetched and checked out with
// the review range decided (this file), the PR's own changes (pr-own-changes), changed lines
// (changed-lines), diffs cut to a limit (limit-diff) and prompt tags escaped (escape-tags). It imports
// job and sessions.

import type { Logger } from "pino";
import type { Run } from "../../db/schema.js";
import type { GitWorkspace } from "../../git/git-workspace.js";
import { prOwnChanges } from "./pr-own-changes.js";

export interface PreparedWorkspace {
  headSha: string;
  mergeBase: string;
  /** What this review covers: the whole PR, the commits since the last review, or the whole PR after a rewrite. */
  mode: "full" | "incremental" | "rewritten";
  from: string;
  /**
   * Incremental only: the PR's merge base moved since the last review, because the base branch was
   * merged into it or it was rebased onto a newer base (merge base `from` → `to`).
   */
  baseMerged?: { from: string; to: string; via: "merge" | "rebase" };
  /** With `baseMerged`: the files the PR's own changes touched since the last review (the only ones to diff; may be empty). */
  paths?: string[];
}

/** Where the base branch is fetched: the maintainers' merged tree (guidelines are read from it, never from the head). */
export const BASE_REF = "refs/no-mistakes/base";
const HEAD_REF = "refs/no-mistakes/head";

/**
 * Fetches the PR's base branch and head into the run's workspace (the token on git's command line
 * only), checks out the head, and decides the review range.
 */
export async function prepareWorkspace(
  workspace: GitWorkspace,
  run: Run,
  token: string | undefined,
  options: { full: boolean; log?: Logger },
): Promise<PreparedWorkspace> {
  await workspace.ensure();
  await workspace.fetch(
    run.cloneUrl,
    [`+refs/heads/${run.baseRef}:${BASE_REF}`, `+refs/pull/${run.prNumber}/head:${HEAD_REF}`],
    { token },
  );
  // The newest head: GitHub's refs/pull/N/head, or the head the webhooks reported when that ref lags
  // behind it (it is updated asynchronously); webhooks themselves can arrive late or out of order.
  const fetched = await workspace.revParse(HEAD_REF);
  let headSha = fetched;
  if (run.headSha !== fetched) {
    if (!(await workspace.hasCommit(run.headSha))) {
      await workspace.fetch(run.cloneUrl, [run.headSha], { token }).catch((error: unknown) => {
        options.log?.info(
          { err: error, headSha: run.headSha, fetched },
          "reported head not fetchable; reviewing GitHub's PR ref",
        );
      });
    }
    if ((await workspace.hasCommit(run.headSha)) && (await workspace.isAncestor(fetched, run.headSha)))
      headSha = run.headSha;
  }
  await workspace.checkout(headSha);
  const mergeBase = await workspace.mergeBase(BASE_REF, headSha);
  if (!mergeBase) throw new Error(`the head ${headSha} shares no history with ${run.baseRef}`);

  const last = run.lastReviewedSha;
  if (options.full || !last || last === headSha) return { headSha, mergeBase, mode: "full", from: mergeBase };
  if (!(await workspace.hasCommit(last))) return { headSha, mergeBase, mode: "rewritten", from: mergeBase };
  // The PR's merge base as of the last review: the newest base commit in `last`'s history.
  const before = await workspace.mergeBase(BASE_REF, last);
  // Since the last review the base moved under the PR: review only the PR's own changes since then.
  const sinceBaseMoved = async (from: string, via: "merge" | "rebase") => ({
    headSha,
    mergeBase,
    mode: "incremental" as const,
    from: last,
    baseMerged: { from, to: mergeBase, via },
    paths: await ownChanges(workspace, { before: from, last, mergeBase, headSha }),
  });
  if (await workspace.isAncestor(last, headSha)) {
    if (!before || before === mergeBase) return { headSha, mergeBase, mode: "incremental", from: last };
    // The base was merged in: last..head holds the base's changes too.
    return sinceBaseMoved(before, "merge");
  }
  // Rebased onto a newer base: the PR's commits are new, but only its changes that differ from what was
  // reviewed are new to the reviewer. Any other rewrite (same or older base) is the whole PR again.
  if (before && before !== mergeBase && (await workspace.isAncestor(before, mergeBase)))
    return sinceBaseMoved(before, "rebase");
  return { headSha, mergeBase, mode: "rewritten", from: mergeBase };
}

/** The files whose PR-side change differs between the PR then (before..last) and now (mergeBase..head). */
async function ownChanges(
  workspace: GitWorkspace,
  at: { before: string; last: string; mergeBase: string; headSha: string },
): Promise<string[]> {
  const [before, after, sinceLast] = await Promise.all([
    workspace.treeChanges(at.before, at.last),
    workspace.treeChanges(at.mergeBase, at.headSha),
    workspace.treeChanges(at.last, at.headSha),
  ]);
  return prOwnChanges({ before, after, sinceLast });
}
