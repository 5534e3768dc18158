import type { Logger } from "pino";
import type { Run } from "../../db/schema.js";
import type { RunJob } from "../../domain/run-job.js";
import type { GitWorkspace } from "../../git/git-workspace.js";
import type { PreparedWorkspace } from "../workspace/prepare-workspace.js";
import type { RunContext } from "../job/run-context.js";
import type { Guideline } from "../guidelines/applicable-guidelines.js";

import type { ChangedLines } from "../workspace/changed-lines.js";

/** One review of a run's head, as its steps pass it along. */
export interface ReviewTurn {
  ctx: RunContext;
  /** The run as this review found it. */
  run: Run;
  job: RunJob;
  signal: AbortSignal;
  log: Logger;
  /** > 0 when an earlier attempt of this job failed part-way. */
  retry: number;
  /** Set once the head to review is known and its check run exists. */
  checkRunId?: number;
}

/** The head to review, checked out in the run's workspace, and the range the review covers. */
export interface ReviewHead {
  workspace: GitWorkspace;
  ws: PreparedWorkspace;
}

/** What the reviewer is shown, and the notes the review body and summary carry. */
export interface ReviewInput {
  checkRunId: number;
  diff: { diff: string; omittedFiles: string[] };
  /** The fixer's commits in the range (short SHAs): another agent's work, under the same scrutiny. */
  fixerCommits: string[];
  /** A later review: the last reviewed head the review converges from, and the lines changed since. */
  since?: string;
  changed?: ChangedLines;
  /** Config problems and a partial diff, said in the review body, the summary and the check run. */
  notes: string[];
  /** The maintainers' guidelines that apply to the PR's changed paths (from the base branch), most specific first. */
  guidelines: Guideline[];
}
