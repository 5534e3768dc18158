// The job room: what every job is handed and carries — PipelineDeps (this file, from the wiring; it
// imports no step), the run's context loaded once per job (run-context), the repository ref (repo-ref) and
// how a failure is classified (classify-failure). It imports nothing of the pipeline but sessions' types.

import type { Logger } from "pino";
import type { Checks } from "../../checks/index.js";
import type { AgentName } from "../../config/env/agent-roles.js";
import type { Database } from "../../db/database.js";
import type { Run } from "../../db/schema.js";
import type { GitWorkspace } from "../../git/git-workspace.js";
import type { GitHubClient } from "../../github/github-client.js";
import type { Metrics } from "../../metrics/metrics.js";
import type { Refusals } from "../../refusals/refusals.js";
import type { RepoAgentChoice, RunSessions } from "../sessions/run-sessions.js";

/**
 * What every pipeline job is handed by the wiring: the database, the agent sessions, GitHub clients,
 * workspaces and the process's logger and metrics. It imports no step, so every room can depend on it.
 */
export interface PipelineDeps {
  db: Database;
  sessions: RunSessions;
  /** Fresh sessions that check a fixer's claims (role `verifier`); absent = fixes stay unverified. */
  verifier?: RunSessions;
  /**
   * Fresh sessions of a named agent for a second opinion on blocking findings (`review.second_opinion`;
   * role `verifier`, trigger `second-opinion`); undefined for an agent the operator did not configure.
   */
  secondOpinion?: (agent: AgentName) => RunSessions | undefined;
  /** Why a repository's choice of a role's agent (`agents:`) does not apply; undefined when it does. */
  repoAgentProblem?: (choice: RepoAgentChoice) => string | undefined;
  log: Logger;
  github: (installationId: number) => Promise<GitHubClient>;
  workspace: (run: Run) => GitWorkspace;
  agentTimeoutMs: number;
  /** The installation token for a git URL, or undefined when the URL is not trusted with it. */
  gitToken: (url: string, token: string) => string | undefined;
  /** True when `login` is this app's own bot (its fixer pushes are reviewed). */
  isOwnBot: (login: string) => Promise<boolean>;
  /** Fix pushes are counted here; absent = nothing recorded. */
  metrics?: Metrics;
  /** Where every refusal goes: counted (refusals_total) and kept for the operator page, in one call. */
  refusals: Refusals;
  /** Running the repository's own commands (setup, checks, reproducers); absent = nothing of the PR ever runs. */
  checks?: Checks;
}
