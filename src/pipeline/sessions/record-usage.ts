import type { AgentResult, Role } from "../../agents/types.js";
import type { SessionMode } from "../../db/turns.js";
import type { Metrics } from "../../metrics/metrics.js";

/** A finished turn's time, tokens and spend, in the metrics (absent = nothing recorded). */
export function recordUsage(
  metrics: Metrics | undefined,
  role: Role,
  mode: SessionMode,
  result: AgentResult,
  seconds: number,
): void {
  if (!metrics) return;
  metrics.agentTurnSeconds.observe({ role, mode }, seconds);
  // a counter throws on a negative or non-finite amount: what an adapter reports must not fail the turn
  const counted = (n: number | undefined) => (typeof n === "number" && Number.isFinite(n) && n > 0 ? n : 0);
  metrics.agentTokens.inc({ role, kind: "input" }, counted(result.usage.tokensIn));
  metrics.agentTokens.inc({ role, kind: "output" }, counted(result.usage.tokensOut));
  metrics.agentCostUsd.inc({ role }, counted(result.usage.costUsd));
}
