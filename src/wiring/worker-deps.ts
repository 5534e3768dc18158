import type { Logger } from "pino";
import type { AgentSandbox } from "../agents/sandbox/agent-sandbox.js";
import type { AgentsByRole } from "./create-agents.js";
import type { EnvConfig } from "../config/env/env-config.js";
import type { DatabaseHandle } from "../db/database.js";
import type { Metrics } from "../metrics/metrics.js";
import type { Refusals } from "../refusals/refusals.js";
import type { RunQueue } from "../queue/run-queue.js";

/** What a process's workers are built from (see startWorkers). */
export interface WorkerDeps {
  config: EnvConfig;
  database: DatabaseHandle;
  /** Each role's agent (see createAgents). */
  agents: AgentsByRole;
  /** Where agents run: the repository's own commands run there too (see createChecks). */
  sandbox?: AgentSandbox;
  queue: RunQueue;
  log: Logger;
  metrics?: Metrics;
  /** This process's refusals (counted and kept for the operator page). */
  refusals: Refusals;
}
