import type { Context } from "probot";
import { recordDelivery } from "../db/webhook-deliveries.js";
import { updateRun, upsertRun } from "../db/runs.js";
import type { WebhookDeps } from "./webhook-deps.js";

type PullRequestContext = Context<
  "pull_request.opened" | "pull_request.reopened" | "pull_request.ready_for_review" | "pull_request.synchronize"
>;

/** A PR opened, reopened, marked ready, or pushed to: record, refresh the run, enqueue a review — one transaction. */
export async function onPullRequest(context: PullRequestContext, deps: WebhookDeps): Promise<void> {
  const { payload } = context;
  const log = deps.log.child({ deliveryId: context.id, event: `${context.name}.${payload.action}` });
  const installation = payload.installation;
  if (!installation) return log.warn({}, "webhook without installation; ignored");

  const pr = payload.pull_request;
  const outcome = await deps.transaction(async (tx) => {
    if (!(await recordDelivery(tx.db, context.id, context.name))) return null;
    const run = await upsertRun(tx.db, {
      installationId: installation.id,
      repositoryId: payload.repository.id,
      repositoryFullName: payload.repository.full_name,
      cloneUrl: payload.repository.clone_url,
      prNumber: pr.number,
      title: pr.title,
      body: pr.body ?? "",
      authorLogin: pr.user?.login ?? "",
      baseRef: pr.base.ref,
      baseSha: pr.base.sha,
      headRef: pr.head.ref,
      headSha: pr.head.sha,
      headRepoFullName: pr.head.repo?.full_name ?? null,
      headCloneUrl: pr.head.repo?.clone_url ?? null,
      maintainerCanModify: pr.maintainer_can_modify ?? false,
      draft: pr.draft ?? false,
      prUpdatedAt: pr.updated_at ? new Date(pr.updated_at) : null,
    });
    if (payload.action === "reopened" && run.state === "closed") await updateRun(tx.db, run.id, { state: "open" });
    const jobId = await deps.enqueue(
      { runId: run.id, trigger: payload.action, deliveryId: context.id, senderLogin: payload.sender.login, senderType: payload.sender.type },
      tx,
    );
    return { runId: run.id, jobId };
  });
  if (!outcome) return log.info({}, "redelivery ignored");
  const { runId, jobId } = outcome;
  log.info({ runId, headSha: pr.head.sha, queued: jobId !== null }, jobId ? "review queued" : "review already waiting; it will take the newest head");
}
