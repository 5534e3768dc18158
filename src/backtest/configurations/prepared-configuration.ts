import type { RunSessions } from "../../pipeline/index.js";
import type { Agent } from "../../agents/types.js";
import type { Checks } from "../../checks/index.js";
import type { EnvConfig } from "../../config/env/env-config.js";

/** A configuration made ready: its agent and sessions as the app builds them, and what identifies it. */
export interface PreparedConfiguration {
  label: string;
  /** Changes when anything that changes its reviews changes (configurationFingerprint): stored results of another fingerprint are not reused. */
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
  /** Running the repository's own code, as the app's workers do (absent with CHECKS=off or no sandbox). */
  checks?: Checks;
  /** The `.github/no-mistakes.yml` its reviews read: its own file, else the clone's at --branch, with its extra instructions; undefined when there is none. */
  configText?: string;
  /** `claude (model …), config …` for the report. */
  describe: string;
}
