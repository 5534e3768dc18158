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
