import { setTurnRawAnswer } from "../../db/turns.js";
import { sanitizeMarkdown } from "../../text/sanitize-markdown.js";
import type { PipelineDeps } from "../job/pipeline-deps.js";
import type { TurnOutcome } from "../sessions/run-sessions.js";
import type { ReviewTurn } from "./review-turn.js";

/**
 * A reviewer that answered twice without the expected JSON: its raw answers are kept with their turns
 * and the check run fails, saying why; nothing is posted.
 */
export async function reportUnreadableAnswer(
  deps: PipelineDeps,
  turn: ReviewTurn,
  checkRunId: number,
  answers: TurnOutcome[],
  problems: string[],
): Promise<void> {
  const { github, ref } = turn.ctx;
  for (const answer of answers)
    if (answer.turnId !== undefined) await setTurnRawAnswer(deps.db, answer.turnId, answer.result.text);
  await github.updateCheckRun(ref, checkRunId, {
    status: "completed",
    conclusion: "failure",
    title: "The reviewer's answer could not be read",
    summary: `The reviewer answered twice without the expected JSON, so nothing was posted. Its raw answers are kept with the run's turns.\n\n${problems.map((p) => `- ${sanitizeMarkdown(p)}`).join("\n")}`,
  });
}
