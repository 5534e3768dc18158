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

export function isConversation(command: { kind: string }): command is ConversationCommand {
  return command.kind === "ask" || command.kind === "argue" || command.kind === "confirm";
}

/** A short reply that confirms a ruling: "confirm", "confirmed", "I confirm", "+1", 👍. */
export function isConfirmation(body: string): boolean {
  const first = body.trim().split("\n")[0]!.trim();
  return /^(i\s+)?confirm(ed)?\b/i.test(first) || /^(\+1|👍(🏻|🏼|🏽|🏾|🏿)?)[.!\s]*$/u.test(first);
}
