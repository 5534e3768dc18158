import type { PipelineDeps } from "../job/pipeline-deps.js";
import { buildFixPrompt, type FixPromptInput } from "./build-fix-prompt.js";
import { fixerGuidelines } from "./fixer-guidelines.js";
import type { BranchTip, ChosenFindings, FixTurn } from "./fix-turn.js";
import { parseFixerAnswer, type FixerAnswer } from "./parse-fixer-answer.js";

/**
 * The fixer turn, in the run's workspace at the head branch's tip. Its edits are left uncommitted on that
 * tip: HEAD must still be where the turn started (an agent's own commits are folded back into the change).
 */
export async function askFixer(
  deps: PipelineDeps,
  turn: FixTurn,
  findings: ChosenFindings,
  tip: BranchTip,
): Promise<FixerAnswer & { turnId?: number }> {
  const { run, request, log } = turn;
  const { workspace, startSha } = tip;
  const prompt: FixPromptInput = {
    repository: run.repositoryFullName,
    prNumber: run.prNumber,
    findings: findings.chosen,
    note: request.note,
  };
  // The maintainers' guidelines for the findings' paths: a resumed session gets only those it was not given.
  const guidelines = await fixerGuidelines(deps, turn, findings, tip);
  const outcome = await deps.sessions.run(run.id, "fixer", {
    trigger: request.trigger,
    headSha: startSha,
    prompt: buildFixPrompt({ ...prompt, guidelines: guidelines?.resumed }),
    ...(guidelines ? { freshPrompt: buildFixPrompt({ ...prompt, guidelines: guidelines.fresh }) } : {}),
    cwd: workspace.dir,
    timeoutMs: deps.agentTimeoutMs,
    signal: turn.signal,
    limits: turn.ctx.config,
  });
  if (guidelines) {
    const given = guidelines.given[outcome.mode === "resumed" ? "resumed" : "fresh"];
    await deps.sessions.remember(run.id, "fixer", { v: 1, guidelines: given });
  }
  const answer = parseFixerAnswer(outcome.result.json, outcome.result.text);
  if ((await workspace.headSha()) !== startSha) {
    log.warn({ startSha }, "the fixer moved HEAD; its commits are folded into one bot commit");
    await workspace.resetSoft(startSha);
  }
  return { ...answer, turnId: outcome.turnId };
}
