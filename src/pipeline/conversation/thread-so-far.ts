import type { GitHubClient, RepoRef } from "../../github/github-client.js";
import type { ThreadEntry } from "./build-conversation-prompt.js";

/** Hidden markers are the bot's bookkeeping, not part of what was said. */
const MARKER = /<!-- no-mistakes:[^>]*-->/g;

/**
 * A review thread's comments before `before` (the comment being answered), oldest first: the bot's own
 * (by its user id) shown as the reviewer's, everyone else's by login.
 */
export async function threadSoFar(
  github: GitHubClient,
  ref: RepoRef,
  pr: number,
  threadId: number,
  before: number,
): Promise<ThreadEntry[]> {
  const [comments, bot] = await Promise.all([github.listPullReviewComments(ref, pr), github.botIdentity()]);
  return comments
    .filter((c) => (c.id === threadId || c.inReplyToId === threadId) && c.id !== before && c.id < before)
    .sort((a, b) => a.id - b.id)
    .map((c) => ({
      author: c.authorId === bot.id ? "you (the reviewer)" : (c.authorLogin ?? "someone"),
      body: c.body.replace(MARKER, "").trim(),
    }));
}
