import { listTurns } from "../../db/turns.js";
import { budgetRefusal, spendOf } from "../sessions/check-budget.js";
import type { PipelineDeps } from "../job/pipeline-deps.js";
import type { FixTurn } from "./fix-turn.js";

/** Bounds: fix rounds and the PR's budget. True when they are spent: the reply says so, and no fixer turn starts. */
export async function stopAtBudget(deps: PipelineDeps, turn: FixTurn): Promise<boolean> {
  const refusal = budgetRefusal(spendOf(await listTurns(deps.db, turn.run.id)), turn.ctx.config, "fixer");
  if (!refusal) return false;
  await deps.refusals.refuse({
    kind: "budget",
    repositoryFullName: turn.run.repositoryFullName,
    prNumber: turn.run.prNumber,
    actor: turn.request.requestedBy ?? "fixer",
    reason: `no fix attempted: ${refusal}; raise it in .github/no-mistakes.yml`,
  });
  await turn.reply(`${turn.who}No fix was attempted: ${refusal}.`);
  return true;
}
