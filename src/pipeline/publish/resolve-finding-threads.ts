import type { Logger } from "pino";
import type { Finding } from "../../db/schema.js";
import type { GitHubClient, RepoRef } from "../../github/github-client.js";
import { shortSha } from "../../text/labels.js";
import { inlineCode } from "../../text/sanitize-markdown.js";
import { replyOnce } from "./reply-once.js";

/**
 * Replies "Resolved in <sha>." on each resolved finding's thread and resolves it; if resolving fails, the reply
 * stands alone. `passing` cites the reproducer that now passes there (`Resolved in <sha>: \`cmd\` now passes.`);
 * `note` follows.
 */
export async function resolveFindingThreads(
  github: GitHubClient,
  ref: RepoRef,
  pr: number,
  headSha: string,
  resolved: Finding[],
  log: Logger,
  more: { note?: string; passing?: string } = {},
): Promise<void> {
  for (const finding of resolved) {
    if (finding.commentId === null) continue;
    const commentId = finding.commentId;
    const proof = more.passing !== undefined ? `: ${inlineCode(more.passing)} now passes.` : ".";
    const body = `Resolved in ${shortSha(headSha)}${proof}${more.note ? ` ${more.note}` : ""}`;
    await replyOnce(github, ref, pr, commentId, body);
    if (!finding.commentNodeId) continue;
    try {
      const threadId = await github.findReviewThreadId(ref, pr, finding.commentNodeId);
      if (threadId) await github.resolveReviewThread(threadId);
    } catch (error) {
      log.warn({ err: error, finding: finding.number }, "review thread could not be resolved; the reply stands alone");
    }
  }
}
