import type { RunAgentSession } from "../../db/schema.js";
import { loadRunAgentSession } from "../../db/run-agent-sessions.js";
import { forgetSession } from "./forget-session.js";
import { rolloverReason } from "./rollover-reason.js";
import type { SessionDeps } from "./session-deps.js";
import type { SessionTurn } from "./session-turn.js";
import type { TurnState } from "./turn-state.js";

/**
 * Load, the first step of a turn: the stored session it will try to resume, or undefined when it runs
 * in a new one, with `state` set to why — `cold` (the adapter cannot resume, or the store cannot be
 * read), `started` (asked to be fresh, nothing stored, or another agent's session) or `rollover`
 * (rolloverReason; the stored session is forgotten). A resume's mode is known once the agent answers.
 */
export async function chooseSession(
  deps: SessionDeps,
  { runId, role, turn, log }: SessionTurn,
  state: TurnState,
): Promise<RunAgentSession | undefined> {
  if (!deps.agent.supportsResume) {
    state.mode = "cold";
    return undefined;
  }
  if (turn.fresh) {
    state.mode = "started";
    return undefined;
  }
  let stored: RunAgentSession | undefined;
  try {
    stored = await loadRunAgentSession(deps.db, runId, role);
  } catch (error) {
    state.mode = "cold";
    state.fallbackReason = `session store unavailable: ${(error as Error).message}`;
    deps.metrics?.agentFallbacks.inc({ reason: "store_unavailable" });
    log.warn({ err: error }, "session load failed; running cold");
  }
  if (stored && stored.agent !== deps.agent.name) {
    log.info({ storedAgent: stored.agent }, "stored session belongs to another agent; starting fresh");
    stored = undefined;
  }
  const rollover = stored && (await rolloverReason(deps, runId, stored, turn, log));
  if (stored && rollover) {
    state.mode = "rollover";
    state.fallbackReason = rollover;
    deps.metrics?.agentFallbacks.inc({ reason: "rollover" });
    log.info({ sessionId: stored.sessionId, contextTokens: stored.contextTokens }, "session rolled over");
    await forgetSession(deps.db, runId, role, log);
    return undefined;
  }
  return stored;
}
