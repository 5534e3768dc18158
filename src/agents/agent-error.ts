import type { AgentUsage } from "./types.js";

/**
 * Why an agent call failed, decided where the process runs:
 * - resume-failed: the session to resume is gone or unusable (the turn can run fresh)
 * - timeout: the call ran past its time limit
 * - cancelled: the job was cancelled; never retried
 * - transient: rate limit, overload, network; worth retrying after a pause
 * - spawn: the agent could not be started at all
 * - parse: the agent's output could not be read
 * - limit: the turn passed a resource limit (processes, memory, file size, workspace) and was stopped
 * - other: anything else
 */
export type AgentErrorKind =
  "resume-failed" | "timeout" | "cancelled" | "transient" | "spawn" | "parse" | "limit" | "other";

export class AgentError extends Error {
  constructor(
    readonly kind: AgentErrorKind,
    message: string,
    options?: { cause?: unknown; usage?: AgentUsage },
  ) {
    super(message, options);
    this.name = "AgentError";
    this.usage = options?.usage;
  }

  /** What the failed call spent, when it is known (a failed turn still counts in the PR's spend). */
  usage: AgentUsage | undefined;
}

/** Any thrown value as an AgentError (unknown errors become `other`). */
export function toAgentError(error: unknown): AgentError {
  if (error instanceof AgentError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new AgentError("other", message, { cause: error });
}
