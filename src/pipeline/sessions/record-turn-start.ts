import type { Agent } from "../../agents/types.js";
import { startTurn } from "../../db/turns.js";
import type { SessionDeps } from "./session-deps.js";
import type { SessionTurn } from "./session-turn.js";

/**
 * Opens the turn's `turns` row, with the agent and the model id its CLI sends (for the scorecard per agent and
 * model): its id, or undefined when it could not be written (the turn runs anyway).
 */
export async function recordTurnStart(
  deps: SessionDeps,
  { runId, role, turn, log }: SessionTurn,
): Promise<number | undefined> {
  try {
    return await startTurn(deps.db, {
      runId,
      role,
      trigger: turn.trigger,
      headSha: turn.headSha,
      agent: deps.agent.name,
      model: await modelOf(deps.agent, log),
    });
  } catch (error) {
    log.warn({ err: error }, "turn could not be recorded; running it anyway");
    return undefined;
  }
}

/** The model the agent's turns send (memoised by the adapters); null when it has none or cannot say. */
async function modelOf(agent: Agent, log: SessionTurn["log"]): Promise<string | null> {
  try {
    return (await agent.resolveModel?.())?.sent ?? null;
  } catch (error) {
    log.warn({ err: error }, "turn's model unknown; recorded without it");
    return null;
  }
}
