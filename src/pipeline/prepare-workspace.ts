import type { Logger } from "pino";
import type { Run } from "../db/schema.js";
import type { GitWorkspace } from "../git/git-workspace.js";

export interface PreparedWorkspace {
  headSha: string;
  mergeBase: string;
  /** What this review covers: the whole PR, the commits since the last review, or the whole PR after a rewrite. */
  mode: "full" | "incremental" | "rewritten";
  from: string;
}

const BASE_REF = "refs/no-mistakes/base";
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
  await workspace.fetch(run.cloneUrl, [`+refs/heads/${run.baseRef}:${BASE_REF}`, `+refs/pull/${run.prNumber}/head:${HEAD_REF}`], { token });
  // The newest head: GitHub's refs/pull/N/head, or the head the webhooks reported when that ref lags
  // behind it (it is updated asynchronously); webhooks themselves can arrive late or out of order.
  const fetched = await workspace.revParse(HEAD_REF);
  let headSha = fetched;
  if (run.headSha !== fetched) {
    if (!(await workspace.hasCommit(run.headSha))) {
      await workspace.fetch(run.cloneUrl, [run.headSha], { token }).catch((error: unknown) => {
        options.log?.info({ err: error, headSha: run.headSha, fetched }, "reported head not fetchable; reviewing GitHub's PR ref");
      });
    }
    if ((await workspace.hasCommit(run.headSha)) && (await workspace.isAncestor(fetched, run.headSha))) headSha = run.headSha;
  }
  await workspace.checkout(headSha);
  const mergeBase = await workspace.mergeBase(BASE_REF, headSha);
  if (!mergeBase) throw new Error(`the head ${headSha} shares no history with ${run.baseRef}`);

  const last = run.lastReviewedSha;
  if (options.full || !last || last === headSha) return { headSha, mergeBase, mode: "full", from: mergeBase };
  if ((await workspace.hasCommit(last)) && (await workspace.isAncestor(last, headSha))) {
    return { headSha, mergeBase, mode: "incremental", from: last };
  }
  return { headSha, mergeBase, mode: "rewritten", from: mergeBase };
}
