import { listFindings } from "../../db/findings.js";
import type { Finding } from "../../db/schema.js";
import type { PipelineDeps } from "../job/pipeline-deps.js";
import { buildRepairPrompt } from "./build-repair-prompt.js";
import { reviewerMemoryOf } from "./build-review-prompt.js";
import { parseReviewerAnswer } from "./parse-reviewer-answer.js";
import { reportUnreadableAnswer } from "./report-unreadable-answer.js";
import type { ReviewerAnswer } from "./reviewer-answer.js";
import { reviewerPrompts } from "./reviewer-prompts.js";
import { reproducersAsked } from "./reproducers-asked.js";
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
  const { config } = turn.ctx;
  const { workspace, ws } = head;
  const before = await listFindings(deps.db, run.id);
  const prompts = await reviewerPrompts(deps, turn, head, input, before);
  const { common, ledger, fresh, resumedPrompt, freshPrompt } = prompts;
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
      prompt: buildRepairPrompt(parsed.problems, reproducersAsked(config, deps.checks !== undefined)),
    });
    turnId = repair.turnId ?? turnId;
    parsed = readAnswer(repair.result.json);
    if (!parsed.ok) {
      await reportUnreadableAnswer(deps, turn, input.checkRunId, [first, repair], parsed.problems);
      return undefined;
    }
  }
  // The session now knows the whole ledger as it was before this turn, its own summary, and the guidelines
  // of the prompt it was given (a resumed session: those it was given before too).
  const guidelines = prompts.guidelinesGiven[first.mode === "resumed" ? "resumed" : "fresh"];
  await deps.sessions.remember(run.id, "reviewer", reviewerMemoryOf(common, ledger, parsed.answer.summary, guidelines));
  return { answer: parsed.answer, turnId, before };
}

function readAnswer(json: unknown): ReturnType<typeof parseReviewerAnswer> {
  if (json === undefined) return { ok: false, problems: ["the final message holds no JSON object"] };
  return parseReviewerAnswer(json);
}
