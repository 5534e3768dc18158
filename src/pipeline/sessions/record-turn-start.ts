import { startTurn } from "../../db/turns.js";
import type { SessionDeps } from "./session-deps.js";
import type { SessionTurn } from "./session-turn.js";

/** Opens the turn's `turns` row: its id, or undefined when it could not be written (the turn runs anyway). */
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
    });
  } catch (error) {
    log.warn({ err: error }, "turn could not be recorded; running it anyway");
    return undefined;
  }
}
