import type { Logger } from "pino";
import type { EnvConfig } from "../config/env/env-config.js";
import type { DatabaseHandle } from "../db/database.js";
import { RunQueue } from "../queue/run-queue.js";

/**
 * The app's queues on its database. A review may call the agent up to three times (answer, repair, fresh
 * fallback): a job's lease runs out well after that. It is the last resort: a worker that dies is noticed
 * by its heartbeat in seconds.
 */
export function startRunQueue(config: EnvConfig, database: DatabaseHandle, log: Logger): Promise<RunQueue> {
  return RunQueue.start({ database, log, expireInSeconds: Math.ceil((config.agent.timeoutMs * 3) / 1000) + 300 });
}
