import type { ConfigProblem } from "../../config/repo/config-problem.js";
import type { RepoConfig } from "../../config/repo/repo-config.js";
import type { Database } from "../../db/database.js";
import { getRun } from "../../db/runs.js";
import type { Run } from "../../db/schema.js";
import type { GitHubClient, RepoRef } from "../../github/github-client.js";
import { readRepoConfig } from "./read-repo-config.js";
import { repoRef } from "./repo-ref.js";

/**
 * What every step of a run's job works with, loaded once when the job starts: the run, its repository,
 * the installation's GitHub client and the repository's config (from the default branch).
 */
export interface RunContext {
  /** The run as the job found it. */
  run: Run;
  ref: RepoRef;
  github: GitHubClient;
  config: RepoConfig;
  /** What was wrong in the config files, each with its file and line (those settings' defaults were used). */
  configProblems: ConfigProblem[];
  /** The settings a private repository's config file set: applied, but their values are never quoted on the PR. */
  privateSettings: ReadonlySet<string>;
  /**
   * The run's row as it is now: a step reads it where an earlier step of the same job may have moved
   * it (a review sets the reviewed head, a command pauses the run). Undefined once the run is gone.
   */
  current(): Promise<Run | undefined>;
}

/** The context of a run's job; undefined when the run is gone or closed (nothing to do). */
export async function loadRunContext(
  deps: { db: Database; github: (installationId: number) => Promise<GitHubClient> },
  runId: number,
): Promise<RunContext | undefined> {
  const run = await getRun(deps.db, runId);
  if (!run || run.state === "closed") return undefined;
  const github = await deps.github(run.installationId);
  const ref = repoRef(run);
  const { config, problems, privateSettings } = await readRepoConfig(github, ref);
  return runContext(deps.db, run, github, config, problems, privateSettings);
}

/** A context from parts already at hand. */
export function runContext(
  db: Database,
  run: Run,
  github: GitHubClient,
  config: RepoConfig,
  configProblems: ConfigProblem[] = [],
  privateSettings: readonly string[] = [],
): RunContext {
  return {
    run,
    ref: repoRef(run),
    github,
    config,
    configProblems,
    privateSettings: new Set(privateSettings),
    current: () => getRun(db, run.id),
  };
}
