import type { Role } from "./role.js";

/** A `/no-mistakes …` command as parsed from a PR comment (see src/domain/parse-command.ts). */
export type Command =
  | { kind: "fix"; findings: "default" | "all" | number[]; note?: string; invalid?: string[] }
  | { kind: "review"; full: boolean }
  | { kind: "dismiss"; finding?: number; reason?: string }
  | { kind: "reset"; role?: Role }
  | { kind: "pause" }
  | { kind: "resume" }
  | { kind: "status" }
  /** The repository's effective `.github/no-mistakes.yml`, each setting with where it came from. */
  | { kind: "config" }
  /** Propose the team's recent decisions (dismissals with a reason, withdrawals, fixes in merged pull requests) as a learnings pull request. */
  | { kind: "learn" }
  /** A question for the reviewer (read-only); `question` is empty when none was written. */
  | { kind: "ask"; question: string }
  | { kind: "help" }
  | { kind: "unknown"; text: string };

/**
 * Agent work a PR conversation asks of the reviewer, stored in run_commands and answered by the run's
 * queue (never beside a review or fix of the same run):
 * - `ask`: a question (`/no-mistakes ask`, or a mention in a review thread), answered read-only;
 * - `argue`: a reply in the thread of one of the bot's findings; the reviewer rules on it;
 * - `confirm`: a writer confirms a ruling the PR's author asked for (no agent turn).
 */
export type ConversationCommand =
  | { kind: "ask"; question: string; threadId?: number; finding?: number }
  | { kind: "argue"; threadId: number; finding: number; body: string; byWriter: boolean }
  | { kind: "confirm"; threadId: number; finding: number };

/** Whether a stored run command is conversation work (ask, argue, confirm) rather than a `/no-mistakes` command. */
export function isConversation(command: { kind: string }): command is ConversationCommand {
  return command.kind === "ask" || command.kind === "argue" || command.kind === "confirm";
}
