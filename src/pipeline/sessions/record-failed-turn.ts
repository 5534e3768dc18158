import { AgentError, toAgentError } from "../../agents/agent-error.js";
import { recordTurnEnd } from "./record-turn-end.js";
import type { SessionDeps } from "./session-deps.js";
import type { SessionTurn } from "./session-turn.js";
import type { TurnState } from "./turn-state.js";

/**
 * A turn that threw: records it as failed, cancelled or interrupted, with what it spent, and returns the
 * error to throw (a turn whose signal was aborted is thrown as `cancelled`).
 */
export async function recordFailedTurn(
  deps: SessionDeps,
  { turn, log }: SessionTurn,
  turnId: number | undefined,
  state: TurnState,
  error: unknown,
): Promise<AgentError> {
  const failure = toAgentError(error);
  const cancelled = failure.kind === "cancelled" || turn.signal?.aborted === true;
  // A turn stopped because its process is stopping (the abort reason says `interrupted`) will run
  // again elsewhere: it is `interrupted`, as when its process dies, not `cancelled`.
  const interrupted = cancelled && (turn.signal?.reason as { interrupted?: unknown } | undefined)?.interrupted === true;
  await recordTurnEnd(deps.db, turnId, log, {
    status: interrupted ? "interrupted" : cancelled ? "cancelled" : "failed",
    sessionMode: state.mode,
    fallbackReason: state.fallbackReason ?? null,
    error: `${failure.kind}: ${failure.message}`,
    // what the failed call spent still counts in the PR's spend
    tokensIn: failure.usage?.tokensIn ?? 0,
    tokensOut: failure.usage?.tokensOut ?? 0,
    costUsd: failure.usage?.costUsd ?? 0,
  });
  log.warn({ turnId, kind: failure.kind, err: failure }, cancelled ? "agent turn cancelled" : "agent turn failed");
  return cancelled && failure.kind !== "cancelled"
    ? new AgentError("cancelled", failure.message, { cause: failure })
    : failure;
}
