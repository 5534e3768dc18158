import { toAgentError } from "../../agents/agent-error.js";
import { listFindings, updateFinding } from "../../db/findings.js";
import type { Finding } from "../../db/schema.js";
import { blockingFindings } from "../ledger/blocking-findings.js";
import type { PipelineDeps } from "../job/pipeline-deps.js";
import type { TurnOutcome } from "../sessions/run-sessions.js";
import { buildSecondOpinionPrompt } from "./build-second-opinion-prompt.js";
import { parseSecondOpinion, type Opinion } from "./parse-second-opinion.js";
import type { ReproducedFindings } from "./reproduce-findings.js";
import type { ReviewHead, ReviewInput, ReviewTurn } from "./review-turn.js";

/**
 * `review.second_opinion`: after the reproducers and `verify.blocking`, before the review is posted, a fresh
 * session of another agent (role verifier, read-only, never resumed) rules on each finding about to be posted
 * that would block and that nothing reproduced. Confirmed → posted, marked so; refuted → kept as a note with
 * both views (status `note`, never blocking). No ruling (the turn failed, its answer unreadable, a finding it
 * skipped) → posted as the reviewer gave it. The turn is metered under the PR's limits like any other. A
 * finding ruled on already (an earlier attempt of this job) is not asked again.
 */
export async function askSecondOpinion(
  deps: PipelineDeps,
  turn: ReviewTurn,
  head: ReviewHead,
  input: ReviewInput,
  reproduced: ReproducedFindings,
): Promise<ReproducedFindings> {
  const { ctx, run, log } = turn;
  const agent = ctx.config.review.second_opinion;
  if (agent === undefined) return reproduced;
  const toPost = reproduced.recorded.ledger.filter((f) => f.status === "open" && f.reviewId === null);
  const asked = blockingFindings(toPost, ctx.config.review.fail_on).filter(
    (f) => f.reproduction !== "reproduced" && f.secondOpinion === null,
  );
  if (asked.length === 0) return reproduced;
  const sessions = deps.secondOpinion?.(agent);
  if (!sessions) {
    input.notes.push(
      `\`review.second_opinion\` names ${agent}, which this app has no key for: the findings are posted as the reviewer gave them.`,
    );
    return reproduced;
  }
  const outcome = await runSecondOpinion(deps, turn, head, input, asked, sessions);
  const opinions = outcome && parseSecondOpinion(outcome.result.json);
  if (outcome && !opinions)
    log.warn({ answer: outcome.result.text.slice(0, 500) }, "second opinion unreadable; findings posted as given");
  const refuted: number[] = [];
  for (const finding of asked) {
    const opinion = opinions?.find((o) => o.number === finding.number);
    if (!opinion) continue;
    await recordOpinion(deps, run.id, finding, opinion, agent, outcome?.turnId ?? null);
    if (opinion.verdict === "refuted") refuted.push(finding.number);
  }
  log.info({ agent, asked: asked.length, refuted }, "second opinion given");
  const ledger = await listFindings(deps.db, run.id);
  const heldBack = [reproduced.heldBack, refutedNote(refuted.length, agent)].filter((n) => n).join(" ");
  return { ...reproduced, recorded: { ...reproduced.recorded, ledger }, heldBack: heldBack || undefined };
}

/** "1 finding was refuted by a second opinion (codex) and kept as a note in the summary, with both views." */
function refutedNote(n: number, agent: string): string | undefined {
  if (n === 0) return undefined;
  return `${n} finding${n === 1 ? " was" : "s were"} refuted by a second opinion (${agent}) and kept as ${n === 1 ? "a note" : "notes"} in the summary, with both views, not raised.`;
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
): Promise<void> {
  const reason = opinion.reason || "no reason given";
  const patch = { secondOpinion: opinion.verdict, secondOpinionBy: agent, secondOpinionReason: reason };
  const change = { kind: `second-opinion-${opinion.verdict}`, actor: agent, turnId, detail: reason };
  await updateFinding(
    deps.db,
    runId,
    finding.number,
    opinion.verdict === "refuted" ? { ...patch, status: "note" } : patch,
    change,
  );
}
