import type { RepoConfig } from "../../config/repo/repo-config.js";
import { blockingPolicy, reproducersOn } from "../checks/checks-policy.js";
import type { ReproducersAsked } from "./answer-format.js";

/** What the reviewer is told of reproducers: undefined when the repository does not ask for them or this app runs no repository's commands. */
export function reproducersAsked(config: RepoConfig, appRunsChecks: boolean): ReproducersAsked | undefined {
  if (!appRunsChecks || !reproducersOn(config)) return undefined;
  return { timeoutSeconds: config.verify.reproducer_timeout, blocking: blockingPolicy(config) };
}
