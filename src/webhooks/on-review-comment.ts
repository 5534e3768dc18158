import type { EmitterWebhookEvent } from "@octokit/webhooks";
import type { Logger } from "pino";
import { parseCommand } from "../domain/parse-command.js";
import { readRepository } from "../domain/pull-request.js";
import { mentionsABot } from "../domain/bot-mentions.js";
import type { Intake } from "../intake/webhook-intake.js";
import { readPayload } from "./read-payload.js";
import { reviewCommentShape } from "./review-comment-shape.js";

/**
 * A new comment in a PR's review threads: a person's reply in a thread, or a comment that mentions a bot
 * or says `/no-mistakes ask`, is queued; the worker decides whether the thread is one of the bot's
 * findings and whether its author may argue. Bots (this app included) never trigger anything.
 */
export function onReviewComment(
  context: EmitterWebhookEvent<"pull_request_review_comment.created">,
  intake: Intake,
  log: Logger,
): void {
  const payload = readPayload(reviewCommentShape, context, log);
  if (!payload) return;
  const { comment, repository, installation } = payload;
  if (!installation || !comment.user || comment.user.type === "Bot") return;
  const body = comment.body ?? "";
  const command = parseCommand(body);
  const asks = command?.kind === "ask" || mentionsABot(body);
  // Other commands belong in the PR's conversation, where they are answered as today.
  if (command && command.kind !== "ask") return;
  if (!comment.in_reply_to_id && !asks) return;
  intake.accept({
    kind: "command",
    event: "pull_request_review_comment",
    deliveryId: context.id,
    job: {
      ...readRepository(installation.id, repository),
      prNumber: payload.pull_request.number,
      commentId: comment.id,
      author: comment.user.login,
      command: {
        kind: "thread-reply",
        threadId: comment.in_reply_to_id ?? comment.id,
        body,
        authorId: comment.user.id,
        asks,
      },
      deliveryId: context.id,
    },
  });
}
