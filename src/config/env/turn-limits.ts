/** What one agent turn may use; past any of these the turn is stopped with a reason naming the setting. */
export interface TurnLimits {
  /** Processes alive at once in the sandbox (AGENT_MAX_PROCESSES). */
  maxProcesses: number;
  /** Memory of the sandbox's processes and its tmpfs, swap included (AGENT_MAX_MEMORY_MB). */
  maxMemoryMb: number;
  /** The largest file a process may write (AGENT_MAX_FILE_MB). */
  maxFileMb: number;
  /** What the turn may add to its writable workspace and agent home (AGENT_MAX_WORKSPACE_MB). */
  maxWorkspaceMb: number;
}

/** A real CLI turn (node CLI, git, a test run) fits well within these. */
export const DEFAULT_TURN_LIMITS: TurnLimits = {
  maxProcesses: 512,
  maxMemoryMb: 4096,
  maxFileMb: 1024,
  maxWorkspaceMb: 2048,
};
