import { toAgentError } from "../../agents/agent-error.js";
import { updateFinding } from "../../db/findings.js";
import type { Finding } from "../../db/schema.js";
import { blockingFindings } from "../ledger/blocking-findings.js";
import type { PipelineDeps } from "../job/pipeline-deps.js";
import type { TurnOutcome } from "../sessions/run-sessions.js";
import { buildSecondOpinionPrompt } from "./build-second-opinion-prompt.js";
import { parseSecondOpinion, type Opinion } from "./parse-second-opinion.js";
import type { ReviewHead, ReviewInput, ReviewTurn } from "./review-turn.js";

/** What a second opinion ruled: the agent, and the numbers of the findings it confirmed and refuted. */
export interface SecondOpinions {
  agent: string;
  confirmed: number[];
  refuted: number[];
}

/**
 * `review.second_opinion`: before the review is posted, a fresh session of another agent (role verifier,
 * read-only, never resumed) rules on each new blocking finding nothing reproduced. Confirmed → posted,
 * marked so; refuted → kept as a note with both views (status `note`, never blocking). No ruling (the turn
 * failed, its answer unreadable, a finding it skipped) → posted as the reviewer gave it. The turn is metered
 * under the PR's limits like any other. Undefined when none was asked.
 */
export async function askSecondOpinion(
  deps: PipelineDeps,
  turn: ReviewTurn,
  head: ReviewHead,
  input: ReviewInput,
  added: Finding[],
): Promise<SecondOpinions | undefined> {
  const { ctx, run, log } = turn;
  const agent = ctx.config.review.second_opinion;
  if (agent === undefined) return undefined;
  const asked = blockingFindings(added, ctx.config.review.fail_on).filter(
    (f) => f.reproduction !== "reproduced" && f.secondOpinion === null,
  );
  if (asked.length === 0) return undefined;
  const sessions = deps.secondOpinion?.(agent);
  if (!sessions) {
    log.warn({ agent }, "review.second_opinion names an agent this app has no key for; findings posted as given");
    return undefined;
  }
  const outcome = await runSecondOpinion(deps, turn, head, input, asked, sessions);
  const opinions = outcome && parseSecondOpinion(outcome.result.json);
  if (outcome && !opinions)
    log.warn({ answer: outcome.result.text.slice(0, 500) }, "second opinion unreadable; findings posted as given");
  const ruled: SecondOpinions = { agent, confirmed: [], refuted: [] };
  for (const finding of asked) {
    const opinion = opinions?.find((o) => o.number === finding.number);
    if (opinion) await recordOpinion(deps, run.id, finding, opinion, agent, outcome?.turnId ?? null, ruled);
  }
  log.info({ agent, confirmed: ruled.confirmed, refuted: ruled.refuted }, "second opinion given");
  return ruled;
}

/** The second agent's turn; undefined when it failed (unless the job was cancelled: that is thrown). */
async function runSecondOpinion(
  deps: PipelineDeps,
  turn: ReviewTurn,
  head: ReviewHead,
  input: ReviewInput,
  findings: Finding[],
  sessions: NonNullable<ReturnType<NonNullable<PipelineDeps["secondOpinion"]>>>,
): Promise<TurnOutcome | undefined> {
  const { ctx, run, signal, log } = turn;
  try {
    return await sessions.run(run.id, "verifier", {
      trigger: "second-opinion",
      headSha: head.ws.headSha,
      prompt: buildSecondOpinionPrompt({
        repository: run.repositoryFullName,
        prNumber: run.prNumber,
        sha: head.ws.headSha,
        findings,
        diff: input.diff.diff,
      }),
      cwd: head.workspace.dir,
      timeoutMs: deps.agentTimeoutMs,
      signal,
      fresh: true,
      limits: ctx.config,
    });
  } catch (error) {
    if (signal.aborted) throw error;
    log.warn({ err: toAgentError(error) }, "second opinion failed; findings posted as given");
    return undefined;
  }
}

async function recordOpinion(
  deps: PipelineDeps,
  runId: number,
  finding: Finding,
  opinion: Opinion,
  agent: string,
  turnId: number | null,
  ruled: SecondOpinions,
): Promise<void> {
  const reason = opinion.reason || "no reason given";
  const patch = { secondOpinion: opinion.verdict, secondOpinionBy: agent, secondOpinionReason: reason };
  const change = { kind: `second-opinion-${opinion.verdict}`, actor: agent, turnId, detail: reason };
  if (opinion.verdict === "confirmed") {
    ruled.confirmed.push(finding.number);
    await updateFinding(deps.db, runId, finding.number, patch, change);
  } else {
    ruled.refuted.push(finding.number);
    await updateFinding(deps.db, runId, finding.number, { ...patch, status: "note" }, change);
  }
}
