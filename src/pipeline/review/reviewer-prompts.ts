import { digestsOf } from "../guidelines/digests-of.js";
import type { Finding } from "../../db/schema.js";
import { findingId } from "../../domain/finding-id.js";
import type { PipelineDeps } from "../job/pipeline-deps.js";
import { buildReviewPrompt, reviewGuidelinesPrompt } from "./build-review-prompt.js";
import type { LedgerEntry, ReviewPromptInput } from "./review-prompt-input.js";
import { fitReviewDiff } from "./fit-review-diff.js";
import { readReviewerMemory } from "./reviewer-memory.js";
import { reproducersAsked } from "./reproducers-asked.js";
import type { ReviewHead, ReviewInput, ReviewTurn } from "./review-turn.js";

/** The reviewer turn's prompts, and what they were built from (for the memory stored after the turn). */
export interface ReviewerPrompts {
  /** What both prompts are about. */
  common: ReviewPromptInput;
  /** The run's findings as the prompts list them. */
  ledger: LedgerEntry[];
  /** The turn starts a new session even when one is stored (review --full, `review.session: cold`). */
  fresh: boolean;
  /** For the stored session, when it will be resumed. */
  resumedPrompt: string | undefined;
  /** For a new session: it stands alone. */
  freshPrompt: string;
  /**
   * The guidelines the session will have been given after the turn (key → digest): when the stored session
   * was resumed (`resumed`, with what it was given before), or when a new one was started (`fresh`).
   */
  guidelinesGiven: { resumed: Record<string, string>; fresh: Record<string, string> };
}

/** The prompts of a reviewer turn: one for the stored session, when it will be resumed, and one for a new session. */
export async function reviewerPrompts(
  deps: PipelineDeps,
  turn: ReviewTurn,
  head: ReviewHead,
  input: ReviewInput,
  before: Finding[],
): Promise<ReviewerPrompts> {
  const { run, job } = turn;
  const { config } = turn.ctx;
  const { workspace, ws } = head;
  const common = commonPromptInput(turn, head, input, before, deps.checks !== undefined);
  // A stored session that will be resumed is told what changed since it last spoke; any new session (the
  // first, a fallback, a rollover, a reset, cold, --full) gets a prompt that stands alone: the whole PR.
  const fresh = job.full === true || config.review.session === "cold";
  const peek = await deps.sessions.peek(run.id, "reviewer", config);
  const memory = readReviewerMemory(peek.memory);
  const ledger = before.map(ledgerEntry);
  const resumedInput: ReviewPromptInput = { ...common, session: { kind: "resumed", seen: memory, ledger } };
  const resumedPrompt = peek.resumable && !fresh ? buildReviewPrompt(resumedInput) : undefined;
  const whole = await wholePullRequest(workspace, ws, config, input);
  const freshInput: ReviewPromptInput = {
    ...common,
    mode: "full",
    range: { from: ws.mergeBase, to: ws.headSha },
    baseMerged: undefined,
    diff: whole.diff,
    truncated: whole.omittedFiles.length > 0 ? { omittedFiles: whole.omittedFiles, reason: OVER_LIMIT } : undefined,
    session: {
      kind: "fresh",
      closedFindings: ledger.filter((f) => CLOSED.has(f.status)),
      previousSummary: memory?.summary,
    },
  };
  const guidelinesGiven = {
    resumed: { ...memory?.guidelines, ...digestsOf(reviewGuidelinesPrompt(resumedInput).given) },
    fresh: digestsOf(reviewGuidelinesPrompt(freshInput).given),
  };
  return { common, ledger, fresh, resumedPrompt, freshPrompt: buildReviewPrompt(freshInput), guidelinesGiven };
}

const OVER_LIMIT = "the diff is over the size limit";
const CLOSED = new Set(["fixed", "dismissed", "withdrawn", "deferred", "outdated"]);

/** What the review is about, whichever session reads it: the PR, the range, the diff, the open findings. */
function commonPromptInput(
  turn: ReviewTurn,
  head: ReviewHead,
  input: ReviewInput,
  before: Finding[],
  appRunsChecks: boolean,
): ReviewPromptInput {
  const { run } = turn;
  const { config } = turn.ctx;
  const { ws } = head;
  const open = before.filter((f) => f.status === "open" || f.status === "fix-pushed");
  const keptNotes = before.filter((f) => f.status === "note");
  return {
    repository: run.repositoryFullName,
    pr: {
      number: run.prNumber,
      title: run.title,
      body: run.body,
      author: run.authorLogin,
      baseRef: run.baseRef,
      headRef: run.headRef,
    },
    mode: ws.mode,
    range: { from: ws.from, to: ws.headSha },
    baseMerged: ws.baseMerged,
    diff: input.diff.diff,
    truncated:
      input.diff.omittedFiles.length > 0 ? { omittedFiles: input.diff.omittedFiles, reason: OVER_LIMIT } : undefined,
    openFindings: open.map((f) => ({ ...promptFinding(f), body: f.body })),
    converging: input.since === undefined ? undefined : { since: input.since, notes: keptNotes.map(promptFinding) },
    fixerCommits: input.fixerCommits,
    instructions: config.review.instructions,
    maxComments: config.review.max_comments,
    reproducers: reproducersAsked(config, appRunsChecks),
    ...(input.guidelines.length > 0
      ? { guidelines: { list: input.guidelines, maxBytes: config.guidelines.max_bytes } }
      : {}),
  };
}

function ledgerEntry(f: Finding): LedgerEntry {
  const reason = f.status === "dismissed" ? f.dismissReason : f.rulingReason;
  return { ...promptFinding(f), status: f.status, ...(reason ? { reason } : {}) };
}

/** The whole PR's diff (merge base..head) within review.max_diff_bytes: the review's own when it is that. */
async function wholePullRequest(
  workspace: ReviewHead["workspace"],
  ws: ReviewHead["ws"],
  config: ReviewTurn["ctx"]["config"],
  input: ReviewInput,
): Promise<{ diff: string; omittedFiles: string[] }> {
  if (ws.from === ws.mergeBase && ws.paths === undefined) return input.diff;
  const read = await workspace.diff(ws.mergeBase, ws.headSha, { excludeGlobs: config.ignore.paths });
  const { diff, omittedFiles } = fitReviewDiff(read, config.review.max_diff_bytes);
  return { diff, omittedFiles };
}

/** A ledger finding as the review prompt lists it. */
function promptFinding(f: Finding): { id: string; path: string; line?: number; severity: string; title: string } {
  return {
    id: findingId(f.number),
    path: f.path ?? "",
    line: f.line ?? undefined,
    severity: f.severity,
    title: f.title,
  };
}
