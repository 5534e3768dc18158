import type { Logger } from "pino";
import type { ModelBudget } from "../../agents/sandbox/model-meter.js";
import type { RepoConfig } from "../../config/repo/repo-config.js";
import type { Database } from "../../db/database.js";
import { listTurns } from "../../db/turns.js";
import { turnBudget } from "./check-budget.js";

/** What the run may still spend, read before every call (a retry sees what the failed one spent). */
export async function readTurnBudget(
  db: Database,
  runId: number,
  limits: RepoConfig | undefined,
  log: Logger,
): Promise<ModelBudget | undefined> {
  if (!limits) return undefined;
  try {
    return turnBudget(await listTurns(db, runId), limits);
  } catch (error) {
    log.warn({ err: error }, "spend could not be read; the turn runs with the whole budget");
    return turnBudget([], limits);
  }
}
