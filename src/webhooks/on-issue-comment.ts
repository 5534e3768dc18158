import type { EmitterWebhookEvent } from "@octokit/webhooks";
import type { Logger } from "pino";
import { parseCommand } from "../domain/parse-command.js";
import { readRepository } from "../domain/pull-request.js";
import type { Intake } from "../intake/webhook-intake.js";
import { issueCommentShape } from "./issue-comment-shape.js";
import { readPayload } from "./read-payload.js";

/** A new comment on a PR: a `/no-mistakes` command from a person is queued; bots and quotes never trigger anything. */
export function onIssueComment(
  context: EmitterWebhookEvent<"issue_comment.created">,
  intake: Intake,
  log: Logger,
): void {
  const payload = readPayload(issueCommentShape, context, log);
  if (!payload) return;
  const { comment, issue, repository, installation } = payload;
  if (!issue.pull_request || !installation) return;
  if (comment.user?.type === "Bot") return; // this app's own comments included
  const command = parseCommand(comment.body ?? "");
  if (!command) return;
  intake.accept({
    kind: "command",
    deliveryId: context.id,
    job: {
      ...readRepository(installation.id, repository),
      prNumber: issue.number,
      commentId: comment.id,
      author: comment.user?.login ?? "",
      command,
      deliveryId: context.id,
    },
  });
}
