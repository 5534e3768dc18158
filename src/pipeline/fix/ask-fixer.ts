import { checksConfigured } from "../checks/checks-policy.js";
import type { PipelineDeps } from "../job/pipeline-deps.js";
import { buildFixPrompt, buildRetryPrompt, type FixPromptInput } from "./build-fix-prompt.js";
import { fixerGuidelines } from "./fixer-guidelines.js";
import type { BranchTip, ChosenFindings, FixTurn } from "./fix-turn.js";
import { parseFixerAnswer, type FixerAnswer } from "./parse-fixer-answer.js";

/**
 * The fixer turn, in the run's workspace at the head branch's tip. Its edits are left uncommitted on that
 * tip: HEAD must still be where the turn started (an agent's own commits are folded back into the change).
 * `failed` makes it the second round: the session it resumes is told only why its fix was not pushed; a
 * fresh one gets the whole task with that failure.
 */
export async function askFixer(
  deps: PipelineDeps,
  turn: FixTurn,
  findings: ChosenFindings,
  tip: BranchTip,
  failed?: string,
): Promise<FixerAnswer & { turnId?: number }> {
  const { run, request, log, ctx } = turn;
  const { workspace, startSha } = tip;
  const prompt: FixPromptInput = {
    repository: run.repositoryFullName,
    prNumber: run.prNumber,
    findings: findings.chosen,
    note: request.note,
    checked: checksConfigured(ctx.config),
    regressionTests: ctx.config.fix.add_regression_tests,
    ...(failed !== undefined ? { failed } : {}),
  };
  // The maintainers' guidelines for the findings' paths: a resumed session gets only those it was not given.
  const guidelines = await fixerGuidelines(deps, turn, findings, tip);
  const fresh = buildFixPrompt({ ...prompt, guidelines: guidelines?.fresh });
  const resumed =
    failed !== undefined
      ? buildRetryPrompt(failed, guidelines?.resumed)
      : buildFixPrompt({ ...prompt, guidelines: guidelines?.resumed });
  const outcome = await deps.sessions.run(run.id, "fixer", {
    trigger: request.trigger,
    headSha: startSha,
    prompt: resumed,
    ...(guidelines || failed !== undefined ? { freshPrompt: fresh } : {}),
    cwd: workspace.dir,
    timeoutMs: deps.agentTimeoutMs,
    signal: turn.signal,
    limits: ctx.config,
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
