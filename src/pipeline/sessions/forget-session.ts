import type { Logger } from "pino";
import type { Role } from "../../agents/types.js";
import type { Database } from "../../db/database.js";
import { deleteRunAgentSession } from "../../db/run-agent-sessions.js";

/** Deletes the stored session of a (run, role); a delete that fails is only logged (the next save replaces it). */
export async function forgetSession(db: Database, runId: number, role: Role, log: Logger): Promise<void> {
  try {
    await deleteRunAgentSession(db, runId, role);
  } catch (error) {
    log.warn({ err: error }, "dead session could not be deleted; it will be replaced");
  }
}
