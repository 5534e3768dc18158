import { listFindings } from "../../db/findings.js";
import type { Finding } from "../../db/schema.js";
import { setTurnRawAnswer } from "../../db/turns.js";
import { findingId } from "../../domain/finding-id.js";
import { sanitizeMarkdown } from "../render/sanitize-markdown.js";
import type { PipelineDeps } from "../job/pipeline-deps.js";
import { buildRepairPrompt } from "./build-repair-prompt.js";
import {
  buildReviewPrompt,
  reviewerMemoryOf,
  type LedgerEntry,
  type ReviewPromptInput,
} from "./build-review-prompt.js";
import { fitReviewDiff } from "./fit-review-diff.js";
import { readReviewerMemory } from "./reviewer-memory.js";
import { parseReviewerAnswer } from "./parse-reviewer-answer.js";
import type { ReviewerAnswer } from "./reviewer-answer.js";
import type { ReviewHead, ReviewInput, ReviewTurn } from "./review-turn.js";

/** The reviewer's readable answer, the turn that gave it, and the ledger as the reviewer was shown it. */
export interface ReviewerVerdict {
  answer: ReviewerAnswer;
  turnId: number | undefined;
  /** The run's findings before this review. */
  before: Finding[];
}

/**
 * The reviewer turn, resumed from the run's reviewer session, and one repair request in the same session
 * if its answer is unreadable. Undefined when it stays unreadable: the check run says so and the raw
 * answers are kept with the turns.
 */
export async function askReviewer(
  deps: PipelineDeps,
  turn: ReviewTurn,
  head: ReviewHead,
  input: ReviewInput,
): Promise<ReviewerVerdict | undefined> {
  const { run, job, log } = turn;
  const { github, ref, config } = turn.ctx;
  const { workspace, ws } = head;
  const before = await listFindings(deps.db, run.id);
  const open = before.filter((f) => f.status === "open" || f.status === "fix-pushed");
  const keptNotes = before.filter((f) => f.status === "note");
  const common: ReviewPromptInput = {
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
  };
  // A stored session that will be resumed is told what changed since it last spoke; any new session (the
  // first, a fallback, a rollover, a reset, cold, --full) gets a prompt that stands alone: the whole PR.
  const fresh = job.full === true || config.review.session === "cold";
  const peek = await deps.sessions.peek(run.id, "reviewer");
  const memory = readReviewerMemory(peek.memory);
  const ledger = before.map(ledgerEntry);
  const resumedPrompt =
    peek.resumable && !fresh
      ? buildReviewPrompt({ ...common, session: { kind: "resumed", seen: memory, ledger } })
      : undefined;
  const whole = await wholePullRequest(workspace, ws, config, input);
  const freshPrompt = buildReviewPrompt({
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
  });
  const call = {
    trigger: job.trigger,
    headSha: ws.headSha,
    cwd: workspace.dir,
    timeoutMs: deps.agentTimeoutMs,
    signal: turn.signal,
    limits: config,
  };
  const first = await deps.sessions.run(run.id, "reviewer", {
    ...call,
    prompt: resumedPrompt ?? freshPrompt,
    freshPrompt,
    fresh,
  });
  let parsed = readAnswer(first.result.json);
  let turnId = first.turnId;
  if (!parsed.ok) {
    log.warn({ problems: parsed.problems }, "reviewer answer unreadable; asking for a repair");
    const repair = await deps.sessions.run(run.id, "reviewer", {
      ...call,
      trigger: "repair",
      prompt: buildRepairPrompt(parsed.problems),
    });
    turnId = repair.turnId ?? turnId;
    parsed = readAnswer(repair.result.json);
    if (!parsed.ok) {
      if (first.turnId !== undefined) await setTurnRawAnswer(deps.db, first.turnId, first.result.text);
      if (repair.turnId !== undefined) await setTurnRawAnswer(deps.db, repair.turnId, repair.result.text);
      await github.updateCheckRun(ref, input.checkRunId, {
        status: "completed",
        conclusion: "failure",
        title: "The reviewer's answer could not be read",
        summary: `The reviewer answered twice without the expected JSON, so nothing was posted. Its raw answers are kept with the run's turns.\n\n${parsed.problems.map((p) => `- ${sanitizeMarkdown(p)}`).join("\n")}`,
      });
      return undefined;
    }
  }
  // The session now knows the whole ledger as it was before this turn, and its own summary.
  await deps.sessions.remember(run.id, "reviewer", reviewerMemoryOf(common, ledger, parsed.answer.summary));
  return { answer: parsed.answer, turnId, before };
}

const OVER_LIMIT = "the diff is over the size limit";
const CLOSED = new Set(["fixed", "dismissed", "withdrawn", "deferred", "outdated"]);

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
  const read = await workspace.diff(ws.mergeBase, ws.headSha, { excludeGlobs: config.review.ignore });
  const { diff, omittedFiles } = fitReviewDiff(read, config.review.max_diff_bytes);
  return { diff, omittedFiles };
}

function readAnswer(json: unknown): ReturnType<typeof parseReviewerAnswer> {
  if (json === undefined) return { ok: false, problems: ["the final message holds no JSON object"] };
  return parseReviewerAnswer(json);
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
