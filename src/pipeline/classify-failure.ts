import { AgentError } from "../agents/agent-error.js";
import { GitError } from "../git/git-error.js";
import { GitHubError } from "../github/github-error.js";

export interface FailureDecision {
  /** Let the queue retry the job later (the failure may pass). */
  retry: boolean;
  /** Short, for the check run title. */
  title: string;
  /** What a user should know, already free of secrets. */
  detail: string;
}

/** The one place that decides what a failed job means for the run. */
export function classifyFailure(error: unknown): FailureDecision {
  if (error instanceof AgentError) {
    switch (error.kind) {
      case "cancelled":
        return { retry: true, title: "Review interrupted", detail: "The review was interrupted and will be retried." };
      case "timeout":
        return { retry: false, title: "The agent ran out of time", detail: error.message };
      case "transient":
        return { retry: true, title: "The agent's model service is unavailable", detail: error.message };
      case "spawn":
        return { retry: false, title: "The agent could not be started", detail: error.message };
      default:
        return { retry: false, title: "The agent failed", detail: error.message };
    }
  }
  if (error instanceof GitHubError) {
    return { retry: error.transient, title: `GitHub refused a request (${error.status ?? error.kind})`, detail: error.message };
  }
  if (error instanceof GitError) {
    const retry = error.kind === "network" || error.kind === "timeout";
    return { retry, title: `git ${error.subcommand} failed (${error.kind})`, detail: error.message };
  }
  return { retry: false, title: "Internal error", detail: error instanceof Error ? error.message : String(error) };
}
