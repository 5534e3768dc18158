import type { Logger } from "pino";
import type { Database } from "../../db/database.js";
import type { RunAgentSession } from "../../db/schema.js";
import { listTurns } from "../../db/turns.js";

/** How many of a session's latest turns its expected growth is read from. */
const GROWTH_WINDOW = 5;

/**
 * How many tokens resuming `stored` will add to its largest request: the most any of its last few
 * turns added (a turn carries its prompt, the files it reads and its answer into the history), and
 * at least this turn's prompt. So a session rolls over before a turn would take it past its budget.
 */
export async function expectedGrowth(
  db: Database,
  runId: number,
  stored: RunAgentSession,
  floor: number,
  log: Logger,
): Promise<number> {
  let sizes: number[];
  try {
    sizes = (await listTurns(db, runId))
      .filter((t) => t.role === stored.role && t.sessionId === stored.sessionId && t.status === "succeeded")
      .map((t) => t.contextTokens)
      .filter((n) => n > 0);
  } catch (error) {
    log.warn({ err: error }, "turns could not be read; the session's growth is taken as its prompt's size");
    return floor;
  }
  const growths = sizes.slice(1).map((n, i) => n - sizes[i]!);
  return Math.max(floor, ...growths.slice(-GROWTH_WINDOW));
}
