import type { Agent } from "../agents/types.js";
import type { EnvConfig } from "../config/env-config.js";
import type { RunSessions } from "../pipeline/sessions/run-sessions.js";

/** A configuration made ready: its agent and sessions as the app builds them, and what identifies it. */
export interface PreparedConfiguration {
  label: string;
  /** Changes when anything that changes its reviews changes (agent, model, arguments, config file): stored results of another fingerprint are not reused. */
  fingerprint: string;
  /** Its runs' repository id (its runs are apart from another configuration's). */
  repositoryId: number;
  /** Where its workspaces and agent homes live. */
  dataDir: string;
  env: EnvConfig;
  /** The environment the configuration sets over the process's (the judge starts from it). */
  overrides: Record<string, string>;
  agent: Agent;
  sessions: RunSessions;
  /** The config file's text used instead of the clone's `.github/no-mistakes.yml`, when given. */
  configText?: string;
  /** `claude (model …), config …` for the report. */
  describe: string;
}
