import type { Logger } from "pino";
import type { CommandJob } from "../../domain/command-job.js";
import type { GitHubClient, RepoRef } from "../../github/github-client.js";
import type { CommandDeps } from "./command-deps.js";

/** One `/no-mistakes` comment being answered: what every answer needs, built once by `handleCommand`. */
export interface CommandCall {
  deps: CommandDeps;
  job: CommandJob;
  github: GitHubClient;
  ref: RepoRef;
  log: Logger;
  /** A comment on the PR's conversation. */
  reply: (body: string) => Promise<void>;
}
