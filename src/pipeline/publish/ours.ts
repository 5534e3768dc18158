import type { GitHubClient } from "../../github/github-client.js";

/**
 * Only what the bot's own user wrote: the hidden markers (per finding, summary, reviewed head,
 * budget notice) are plain text anyone can type into a comment, so a marker counts only on a
 * comment or review whose author is the App's bot user, checked by user id.
 */
export async function ours<T extends { authorId: number }>(
  github: GitHubClient,
  items: Promise<T[]> | T[],
): Promise<T[]> {
  const [{ id }, list] = await Promise.all([github.botIdentity(), items]);
  return list.filter((item) => item.authorId === id);
}
