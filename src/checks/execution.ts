import type { EgressLog } from "./egress-proxy.js";
import type { EgressRule } from "../domain/egress-rule.js";

/** What a run of the repository's own commands is for. */
export type ExecutionKind = "setup" | "check" | "reproducer";

/** One command of the repository's, run in the sandbox on a scratch checkout. */
export interface ExecutionSpec {
  kind: ExecutionKind;
  /** The scratch checkout: the command's changes to it never last. */
  workspace: string;
  /** A shell command line, run by `/bin/sh -c` in the workspace. */
  command: string;
  timeoutMs: number;
  /** Folders stacked read-only over the workspace, topmost first: a reproducer's files, the setup's cache. */
  layers?: readonly string[];
  /** A setup's registries (reached through the egress proxy); absent: no network at all. */
  registries?: readonly EgressRule[];
  /** A setup's cache being filled: the workspace's new and changed files are saved here when it ends within its limits. */
  saveTo?: string;
  signal?: AbortSignal;
}

/** What happened: the app's own record, never the model's word. */
export interface ExecutionResult {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  /** Set when the sandbox stopped it at a resource limit: which, in words. */
  limit?: string;
  /** Set when the sandbox could not run it at all. */
  error?: string;
  durationMs: number;
  /** The end of what it printed (stdout, then stderr), bounded: the PR author's text, to be rendered inert. */
  output: string;
  /** SHA-256 of everything it printed that was kept. */
  outputDigest: string;
  /** A setup's network: the hosts it reached and those it was refused. */
  egress?: EgressLog;
}

/** Whether it ran to an exit of its own (not stopped, not failed to start). */
export function ranToExit(result: ExecutionResult): boolean {
  return !result.timedOut && result.limit === undefined && result.error === undefined && result.exitCode !== null;
}
