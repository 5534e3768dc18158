import type { Role } from "../../agents/types.js";

/**
 * The agent home of a (run, role): each gets its own CLI config dir, restored from the database
 * before a turn and exported after it, and the sandbox shows a turn only its own.
 */
export function agentScope(runId: number, role: Role): string {
  return `run-${runId}-${role}`;
}
