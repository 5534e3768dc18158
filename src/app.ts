import type { ApplicationFunction } from "probot";
import type { Logger } from "pino";
import type { Agent } from "./agents/types.js";
import type { EnvConfig } from "./config/env-config.js";
import type { DatabaseHandle } from "./db/database.js";

export interface AppDependencies {
  config: EnvConfig;
  database: DatabaseHandle;
  agent: Agent;
  log: Logger;
}

/** Probot wiring: events → guards → enqueue. Nothing slow happens here. */
export function createApp(deps: AppDependencies): ApplicationFunction {
  return (app) => {
    app.log.info({ agent: deps.agent.name, database: deps.database.kind }, "no-mistakes loaded");
  };
}
