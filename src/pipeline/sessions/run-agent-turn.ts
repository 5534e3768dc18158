import { toAgentError, type AgentError } from "../../agents/agent-error.js";
import type { AgentResult } from "../../agents/types.js";
import type { RunAgentSession } from "../../db/schema.js";
import { callAgent } from "./call-agent.js";
import { forgetSession } from "./forget-session.js";
import { restoreSessionState } from "./restore-session-state.js";
import type { SessionDeps } from "./session-deps.js";
import type { SessionTurn } from "./session-turn.js";
import type { TurnState } from "./turn-state.js";

/**
 * Attach, the second step of a turn: the agent's answer, from the stored session when there is one
 * (resumeSession), else from a new session told the prompt that stands alone. A resume that fails (not
 * a cancellation) falls back to a fresh session (fallBackFresh). `state` ends in the mode the turn ran in.
 */
export async function runAgentTurn(
  deps: SessionDeps,
  t: SessionTurn,
  stored: RunAgentSession | undefined,
  state: TurnState,
): Promise<AgentResult> {
  if (!stored) return await callAgent(deps, t, t.fresh, undefined);
  try {
    return await resumeSession(deps, t, stored, state);
  } catch (error) {
    const failure = toAgentError(error);
    if (failure.kind === "cancelled" || t.turn.signal?.aborted) throw failure;
    return await fallBackFresh(deps, t, stored, state, failure);
  }
}

/**
 * The turn in the stored session, its exported state restored first when the adapter can: `resumed`,
 * or `fallback` when the agent silently started a new session instead.
 */
async function resumeSession(
  deps: SessionDeps,
  t: SessionTurn,
  stored: RunAgentSession,
  state: TurnState,
): Promise<AgentResult> {
  await restoreSessionState(deps.agent, stored, t.turn.cwd, t.scope);
  const result = await callAgent(deps, t, t.turn, stored.sessionId);
  if (result.resumed && result.sessionId !== undefined) {
    state.mode = "resumed";
    return result;
  }
  state.mode = "fallback";
  state.fallbackReason = `the agent started a new session instead of resuming ${stored.sessionId}`;
  deps.metrics?.agentFallbacks.inc({ reason: "session_replaced" });
  t.log.warn({ sessionId: stored.sessionId, newSessionId: result.sessionId }, "session silently replaced");
  // That new session was told only what changed: the same turn again, with the prompt that stands alone.
  if (t.fresh.prompt !== t.turn.prompt) return await callAgent(deps, t, t.fresh, undefined);
  return result;
}

/** Fallback: forget the dead session, run the same turn fresh. */
async function fallBackFresh(
  deps: SessionDeps,
  t: SessionTurn,
  stored: RunAgentSession,
  state: TurnState,
  failure: AgentError,
): Promise<AgentResult> {
  state.mode = "fallback";
  state.fallbackReason = `resume of ${stored.sessionId} failed (${failure.kind}): ${failure.message}`;
  deps.metrics?.agentFallbacks.inc({ reason: "resume_failed" });
  t.log.warn(
    { sessionId: stored.sessionId, kind: failure.kind, reason: failure.message },
    "resume failed; running the turn in a fresh session",
  );
  await forgetSession(deps.db, t.runId, t.role, t.log);
  return await callAgent(deps, t, t.fresh, undefined);
}
