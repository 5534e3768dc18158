import type { AgentResult } from "../../agents/types.js";
import type { SessionDeps } from "./session-deps.js";
import type { SessionTurn } from "./session-turn.js";
import { storeSession } from "./store-session.js";
import type { TurnState } from "./turn-state.js";

/**
 * Persist, the third step of a turn: stores the session the agent reported (the latest id always wins),
 * when the adapter can resume. One that could not be saved is counted and, unless the turn already fell
 * back, becomes its fallback reason.
 */
export async function persistSession(
  deps: SessionDeps,
  t: SessionTurn,
  result: AgentResult,
  size: { contextTokens: number; overheadTokens: number | undefined },
  state: TurnState,
): Promise<void> {
  if (!deps.agent.supportsResume || !result.sessionId) return;
  const saved = await storeSession(deps, t, result.sessionId, {
    contextTokens: size.contextTokens,
    overheadTokens: size.overheadTokens,
    newSession: state.mode !== "resumed",
  });
  if (!saved && state.mode !== "fallback") {
    state.fallbackReason ??= "session could not be saved; the next turn starts fresh";
  }
  if (!saved) deps.metrics?.agentFallbacks.inc({ reason: "save_failed" });
}
