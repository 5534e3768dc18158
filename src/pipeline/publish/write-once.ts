// The publish room: every GitHub write the pipeline makes, each exactly once — the review and its inline
// comments (post-review, plan-review, create-review-once), the summary comment, the check run, replies and
// thread resolution — found again by the bot's own markers on its own comments (this file, ours) before
// anything is written twice. It imports render, ledger, workspace, job and sessions.

import { GitHubError } from "../../github/github-error.js";

/**
 * A GitHub write that creates something, made at most once. The HTTP layer never re-sends it (see
 * CREATING_ROUTES): when it fails with no usable answer (5xx, no response) it may still have landed,
 * so `landed` looks for it by the bot's own markers on its own comments; only when nothing is found is
 * the write tried once more. Any other failure (422, 404, auth, rate limit) is thrown as is.
 */
export async function writeOnce<T>(write: () => Promise<T>, landed: () => Promise<T | undefined>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!(error instanceof GitHubError) || (error.kind !== "server" && error.kind !== "unreachable")) throw error;
    const found = await landed();
    if (found !== undefined) return found;
    return write();
  }
}

/** Bodies compared as GitHub may hand them back (line endings, surrounding whitespace). */
export function sameBody(a: string, b: string): boolean {
  const norm = (s: string) => s.replace(/\r\n/g, "\n").trim();
  return norm(a) === norm(b);
}
