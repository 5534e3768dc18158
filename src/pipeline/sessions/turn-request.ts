import type { RepoConfig } from "../../config/repo/repo-config.js";

export interface TurnRequest {
  /** What started the turn: opened, push, command, auto-fix, rerequested, ... */
  trigger: string;
  headSha: string;
  prompt: string;
  cwd: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Start a new session even when one is stored (review --full, `review.session: cold`). */
  fresh?: boolean;
  /** The PR's limits: the model proxy stops the turn once the run's spend reaches them; absent = unbounded. */
  limits?: RepoConfig;
  /** The role's agent as the repository's config chose it, when the turn has no `limits` to read it from. */
  agentChoice?: NonNullable<NonNullable<RepoConfig["agents"]>["verifier"]>;
  /**
   * The prompt for a new session (first turn, `fresh`, cold, a fallback, a rollover): it must stand alone.
   * `prompt` is then what a resumed session is told. Absent: `prompt` serves both.
   */
  freshPrompt?: string;
}
