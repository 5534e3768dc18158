import type { RepoConfig } from "../../config/repo/repo-config.js";
import type { ModelBudget } from "../../agents/sandbox/model-meter.js";
import type { Turn } from "../../db/schema.js";

export interface Spend {
  turns: number;
  fixRounds: number;
  costUsd: number;
}

export function spendOf(turns: Turn[]): Spend {
  return {
    turns: turns.length,
    fixRounds: turns.filter((t) => t.role === "fixer").length,
    costUsd: turns.reduce((sum, t) => sum + Number(t.costUsd), 0),
  };
}

/** Why no further turn may run in this PR, or undefined when the budget allows one. */
export function budgetRefusal(spend: Spend, config: RepoConfig, role: "reviewer" | "fixer"): string | undefined {
  const { max_turns: maxTurns, max_cost_usd: maxCost } = config.limits;
  if (maxTurns !== undefined && spend.turns >= maxTurns)
    return `this PR has used its budget of ${maxTurns} agent turns (limits.max_turns)`;
  if (maxCost !== undefined && spend.costUsd >= maxCost)
    return `this PR has spent $${spend.costUsd.toFixed(2)} of its $${maxCost.toFixed(2)} budget (limits.max_cost_usd)`;
  if (role === "fixer" && spend.fixRounds >= config.fix.max_rounds)
    return `this PR has used all ${config.fix.max_rounds} fix rounds (fix.max_rounds)`;
  return undefined;
}

/** What the next turn may spend before the model proxy stops it: the PR's cost limit less its spend. */
export function turnBudget(turns: Turn[], config: RepoConfig): ModelBudget {
  const max = config.limits.max_cost_usd;
  return { remainingUsd: max - spendOf(turns).costUsd, limit: `$${max.toFixed(2)} (limits.max_cost_usd)` };
}
