import type { Context } from "probot";
import { parseCommand } from "../commands/parse-command.js";
import { recordDelivery } from "../db/webhook-deliveries.js";
import type { WebhookDeps } from "./webhook-deps.js";

/** A new comment on a PR: a `/no-mistakes` command from a person is queued; bots and quotes never trigger anything. */
export async function onIssueComment(context: Context<"issue_comment.created">, deps: WebhookDeps): Promise<void> {
  const { comment, issue, repository, installation } = context.payload;
  if (!issue.pull_request || !installation) return;
  if (comment.user?.type === "Bot") return; // this app's own comments included
  const command = parseCommand(comment.body ?? "");
  if (!command) return;
  const queued = await deps.transaction(async (tx) => {
    if (!(await recordDelivery(tx.db, context.id, context.name))) return false;
    const job = {
      installationId: installation.id,
      repositoryId: repository.id,
      repositoryFullName: repository.full_name,
      cloneUrl: repository.clone_url,
      prNumber: issue.number,
      commentId: comment.id,
      author: comment.user?.login ?? "",
      command,
      deliveryId: context.id,
    };
    await deps.enqueueCommand(job, tx);
    return true;
  });
  if (!queued) return deps.log.info({ deliveryId: context.id }, "redelivery ignored");
  deps.log.info({ deliveryId: context.id, command: command.kind, pr: issue.number }, "command queued");
}
