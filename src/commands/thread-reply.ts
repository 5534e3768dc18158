/**
 * A comment in a review thread that may be for the reviewer: a reply in a thread (the bot's finding
 * comment, decided by the worker), or any review comment that mentions the bot. Not typed by people as a
 * command; the webhook handler builds it.
 */
export interface ThreadReply {
  kind: "thread-reply";
  /** The thread's first comment (the one GitHub replies attach to). */
  threadId: number;
  /** The comment's text, untrusted. */
  body: string;
  /** The author's user id (the bot's own comments never start a turn). */
  authorId: number;
  /** The comment mentions a bot (`@…[bot]`) or says `/no-mistakes ask`: a question for the reviewer. */
  asks: boolean;
}

const BOT_MENTION = /(^|[^\w`])@[A-Za-z0-9][A-Za-z0-9-]*\[bot\]/;

/** Whether a review comment mentions a bot account by its login (`@slug[bot]`); the worker checks it is this app's. */
export function mentionsABot(body: string): boolean {
  return BOT_MENTION.test(body);
}

/** Whether `body` mentions this app's bot (`@<slug>[bot]`), case-insensitively. */
export function mentionsBot(body: string, botLogin: string): boolean {
  const escaped = botLogin.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(^|[^\\w\`])@${escaped}(?![\\w-])`, "i").test(body);
}
