import type { TurnLimits } from "../../config/env/turn-limits.js";

/** Which limit a turn passed, in words for the check run. */
export function limitReason(limit: keyof TurnLimits, limits: TurnLimits): string {
  switch (limit) {
    case "maxProcesses":
      return `it started more than ${limits.maxProcesses} processes (AGENT_MAX_PROCESSES)`;
    case "maxMemoryMb":
      return `it used more than ${limits.maxMemoryMb} MB of memory (AGENT_MAX_MEMORY_MB)`;
    case "maxFileMb":
      return `it wrote a file of ${limits.maxFileMb} MB or more (AGENT_MAX_FILE_MB)`;
    case "maxWorkspaceMb":
      return `it added more than ${limits.maxWorkspaceMb} MB to its workspace (AGENT_MAX_WORKSPACE_MB)`;
  }
}
