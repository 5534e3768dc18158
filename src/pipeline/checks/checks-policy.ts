import type { RepoConfig } from "../../config/repo/repo-config.js";

/** Whether the repository names anything of its own to run (`checks.setup` or `checks.commands`). */
export function checksConfigured(config: RepoConfig): boolean {
  return config.checks.setup.length > 0 || config.checks.commands.length > 0;
}

/** Whether the reviewer is asked for reproducers and they are run. */
export function reproducersOn(config: RepoConfig): boolean {
  return checksConfigured(config) && config.verify.reproducers;
}

/** What becomes of an error nothing reproduced: demoted (the default with checks), kept, or dropped. */
export function blockingPolicy(config: RepoConfig): "demote" | "keep" | "drop" {
  return config.verify.blocking ?? (checksConfigured(config) ? "demote" : "keep");
}
