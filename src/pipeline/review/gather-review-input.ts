import { configProblemNote } from "../render/config-problem-note.js";
import { ensureCheckRun } from "../publish/ensure-check-run.js";
import { ignoredPathsNote } from "./ignored-paths-note.js";
import { leftOutNote } from "./left-out-note.js";
import { repoAgentsNote } from "./repo-agents-note.js";
import type { PipelineDeps } from "../job/pipeline-deps.js";
import { changedSince } from "./changed-since.js";
import { fitReviewDiff } from "./fit-review-diff.js";
import { reviewGuidelines } from "./review-guidelines.js";
import type { ReviewHead, ReviewInput, ReviewTurn } from "./review-turn.js";

/**
 * The check run (in progress), the diff to review (within review.max_diff_bytes), the fixer's commits in
 * the range, and — for a later review — the lines the PR's own changes touched since the last reviewed head.
 */
export async function gatherReviewInput(deps: PipelineDeps, turn: ReviewTurn, head: ReviewHead): Promise<ReviewInput> {
  const { run, job } = turn;
  const { github, ref, config } = turn.ctx;
  const { workspace, ws } = head;
  const notes = turn.ctx.configProblems.map(configProblemNote);
  // The check run, the diff, the range's authors, the files ignore.paths leaves out and the base branch's
  // guidelines, at once.
  const [checkRunId, read, commits, ignored, guidelines] = await Promise.all([
    ensureCheckRun(github, ref, ws.headSha, {
      status: "in_progress",
      title: "Reviewing",
      summary: "The reviewer is at work.",
    }),
    // after a base merge or rebase, only the files the PR's own changes touched (none: nothing to diff)
    ws.paths?.length === 0
      ? { text: "", leftOut: [] }
      : workspace.diff(ws.from, ws.headSha, { excludeGlobs: config.ignore.paths, paths: ws.paths }),
    // the PR's own commits: not those a merge of the base brought in
    workspace.commits(ws.from, ws.headSha, { notIn: ws.mergeBase }),
    ignoredPathsNote(workspace, ws, config.ignore.paths),
    reviewGuidelines(workspace, ws, config),
  ]);
  turn.checkRunId = checkRunId;
  if (ignored) notes.push(ignored);
  const agents = repoAgentsNote(deps, config);
  if (agents) notes.push(agents);
  if (read.leftOut.length > 0) notes.push(leftOutNote(read.leftOut));
  const { overBudget, ...diff } = fitReviewDiff(read, config.review.max_diff_bytes);
  if (overBudget.length > 0) {
    notes.push(
      `Partial review: the diff is larger than review.max_diff_bytes (${config.review.max_diff_bytes} bytes); ${overBudget.length} file${overBudget.length === 1 ? " was" : "s were"} not reviewed: ${overBudget
        .slice(0, 20)
        .map((f) => `\`${f}\``)
        .join(", ")}${overBudget.length > 20 ? ", …" : ""}.`,
    );
  }

  // The fixer's commits are someone else's work, under the same scrutiny.
  const fixerCommits: string[] = [];
  for (const c of commits) if (await deps.isOwnBot(c.authorName)) fixerCommits.push(c.sha.slice(0, 12));

  // A later review (not the first, not one asked for in full) raises new findings only on what the PR's
  // own changes touched since the last reviewed head, or on code those changes break; the rest are notes.
  const last = run.lastReviewedSha;
  const since = job.full || !last || !(await workspace.hasCommit(last)) ? undefined : last;
  const changed = since === undefined ? undefined : await changedSince(workspace, since, ws);
  return { checkRunId, diff, fixerCommits, since, changed, notes, guidelines };
}
