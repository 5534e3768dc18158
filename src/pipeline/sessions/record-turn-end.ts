import type { Logger } from "pino";
import type { Database } from "../../db/database.js";
import { finishTurn } from "../../db/turns.js";

/** Writes a turn's outcome to its `turns` row, when it has one; a failure is only logged. */
export async function recordTurnEnd(
  db: Database,
  turnId: number | undefined,
  log: Logger,
  outcome: Parameters<typeof finishTurn>[2],
): Promise<void> {
  if (turnId === undefined) return;
  try {
    await finishTurn(db, turnId, outcome);
  } catch (error) {
    log.warn({ err: error, turnId }, "turn outcome could not be recorded");
  }
}
