// The fix room: the fix job as a step list (this file), each step in its own file sharing a FixTurn, the
// fixer's and verifier's prompts and answers, and verify-fix. It imports the rooms below: publish,
// checks, render, ledger, workspace, job, sessions — never the review or the conversation.

import type { Logger } from "pino";
import type { RunContext } from "../job/run-context.js";
import type { PipelineDeps } from "../job/pipeline-deps.js";
import { refreshSummary } from "../publish/refresh-summary.js";
import { listTurns } from "../../db/turns.js";
import { budgetRefusal, spendOf } from "../sessions/check-budget.js";
import { addRegressionTests } from "./add-regression-tests.js";
import { askFixer } from "./ask-fixer.js";
import { checkOutBranchTip } from "./check-out-branch-tip.js";
import { chooseFindings } from "./choose-findings.js";
import { commitFix } from "./commit-fix.js";
import { findPushTarget } from "./find-push-target.js";
import type { BranchTip, ChosenFindings, FixCommit, FixProof, FixRequest, FixTurn } from "./fix-turn.js";
import { checksBefore, proveFix, type ChecksBefore } from "./prove-fix.js";
import { pushFix } from "./push-fix.js";
import { recordPushedFix } from "./record-pushed-fix.js";
import { refuseEscapingSymlinks } from "./refuse-escaping-symlinks.js";
import { refuseGitlinks } from "./refuse-gitlinks.js";
import { refuseNestedRepositories } from "./refuse-nested-repositories.js";
import { refuseUnprovenFix } from "./refuse-unproven-fix.js";
import { failuresForPrompt } from "./render-fix-proof.js";
import { refuseWorkflowChanges } from "./refuse-workflow-changes.js";
import { stopAtBudget } from "./stop-at-budget.js";
import { verifyClaims } from "./verify-claims.js";

export type { FixRequest } from "./fix-turn.js";

/**
 * A fixer turn: the agent edits the PR's head in the run's workspace; the bot commits with its own
 * identity and pushes fast-forward to the PR branch. Whatever happens, the PR gets a reply, and a
 * refused push carries the change as a patch so nothing is lost. The steps, in order: the PR's budget,
 * the findings to fix, where the fix can go (as GitHub reports the PR now), the fixer's turn at the head
 * branch's tip, the bot's commit of what it left — refused if it holds a nested repository, a gitlink,
 * a link out of the repository or a workflow change — and, when the repository names checks, the gate: the
 * claimed findings' reproducers must pass on the commit and no check that passed on the tip may fail on it
 * (a blocked fix goes back to the fixer once, with the failure). Then the reproducers as regression tests
 * (`fix.add_regression_tests`), the push, the ledger and the reply, then an independent verifier's ruling on
 * each claimed fix and the summary.
 */
export async function runFix(
  deps: PipelineDeps,
  ctx: RunContext,
  request: FixRequest,
  signal: AbortSignal,
): Promise<void> {
  const { github, ref } = ctx;
  const log: Logger = deps.log.child({ runId: ctx.run.id, role: "fixer" });
  const run = await ctx.current();
  if (!run || run.state === "closed") return;
  const turn: FixTurn = {
    ctx,
    run,
    request,
    signal,
    log,
    who: request.requestedBy ? `@${request.requestedBy} ` : "",
    reply: (body: string) => github.createIssueComment(ref, run.prNumber, body).then(() => undefined),
  };
  await fix(deps, turn);
}

/** The fix's steps, in order; a step that ends the fix has replied why. */
async function fix(deps: PipelineDeps, turn: FixTurn): Promise<void> {
  if (await stopAtBudget(deps, turn)) return;
  const findings = await chooseFindings(deps, turn);
  if (!findings) return;
  const target = await findPushTarget(deps, turn);
  if (!target) return;
  const tip = await checkOutBranchTip(deps, turn, target);
  const proven = await provenFix(deps, turn, findings, tip);
  if (!proven) return;
  const commit = await addRegressionTests(deps, turn, tip, proven);
  if (!(await pushFix(deps, turn, findings, tip, commit))) return;
  await recordPushedFix(deps, turn, findings, tip, commit);
  await verifyClaims(deps, turn, tip, commit);
  const { db } = deps;
  const { github, ref, config } = turn.ctx;
  await refreshSummary(db, github, ref, turn.run, config);
}

/**
 * The fixer's rounds: a fix the gate blocks goes back to the fixer once, with the failure, while the PR's
 * budget allows another fixer turn; a second failure ends the fix. Undefined when the fix ends here (the reply
 * has said why).
 */
async function provenFix(
  deps: PipelineDeps,
  turn: FixTurn,
  findings: ChosenFindings,
  tip: BranchTip,
): Promise<FixCommit | undefined> {
  const before = checksBefore(deps, turn, tip);
  const first = await fixRound(deps, turn, findings, tip, before);
  if (!first || first.proof.failures.length === 0) return first;
  const spent = budgetRefusal(spendOf(await listTurns(deps.db, turn.run.id)), turn.ctx.config, "fixer");
  await refuseUnprovenFix(
    deps,
    turn,
    findings,
    tip,
    first,
    spent ? { again: false, why: `No second round: ${spent}` } : { again: true },
  );
  if (spent) return undefined;
  // The first round's change goes back to the working tree, uncommitted, for the fixer to correct.
  await tip.workspace.resetSoft(tip.startSha);
  const second = await fixRound(deps, turn, findings, tip, before, failuresForPrompt(first.proof.failures));
  if (!second || second.proof.failures.length === 0) return second;
  await refuseUnprovenFix(deps, turn, findings, tip, second, {
    again: false,
    why: "The fixer's second round does not pass either, so the fix stops here",
  });
  return undefined;
}

/**
 * One round: the fixer's turn (`failed`: the second, told why the first was not pushed), the bot's commit of
 * what it left — refused if it holds a nested repository, a gitlink, a link out of the repository or a
 * workflow change — and what the app runs on that commit. Undefined when the fix ends here.
 */
async function fixRound(
  deps: PipelineDeps,
  turn: FixTurn,
  findings: ChosenFindings,
  tip: BranchTip,
  before: ChecksBefore,
  failed?: string,
): Promise<(FixCommit & { proof: FixProof }) | undefined> {
  const answer = await askFixer(deps, turn, findings, tip, failed);
  if (await refuseNestedRepositories(deps, turn, tip)) return undefined;
  const commit = await commitFix(turn, findings, tip, answer);
  if (!commit) return undefined;
  if (await refuseGitlinks(deps, turn, tip, commit)) return undefined;
  if (await refuseEscapingSymlinks(deps, turn, tip, commit)) return undefined;
  if (await refuseWorkflowChanges(deps, turn, findings, tip, commit)) return undefined;
  return { ...commit, proof: await proveFix(deps, turn, commit, before) };
}
