import type { StoredReviewComment } from "./github-stand-in.js";
import { examplePayload } from "./webhook-payloads.js";

/** A real pull_request_review_comment.created payload for a comment the stand-in stores (a reply carries in_reply_to_id). */
export function reviewCommentPayload(
  at: { pr: number; repoId: number; fullName: string; cloneUrl: string },
  comment: Pick<StoredReviewComment, "id" | "body" | "user" | "in_reply_to_id" | "path" | "line">,
): Record<string, any> {
  const payload = examplePayload("pull_request_review_comment", "created");
  const [owner = "", name = ""] = at.fullName.split("/");
  payload.comment = {
    ...payload.comment,
    id: comment.id,
    node_id: `RC_${comment.id}`,
    body: comment.body,
    path: comment.path,
    line: comment.line,
    user: { ...payload.comment.user, ...comment.user },
    ...(comment.in_reply_to_id ? { in_reply_to_id: comment.in_reply_to_id } : {}),
  };
  payload.pull_request = { ...payload.pull_request, number: at.pr };
  payload.repository = {
    ...payload.repository,
    id: at.repoId,
    name,
    full_name: at.fullName,
    clone_url: at.cloneUrl,
    owner: { ...payload.repository.owner, login: owner },
  };
  payload.installation = { id: 99, node_id: "inst" };
  payload.sender = { ...payload.sender, login: comment.user.login, type: comment.user.type };
  return payload;
}
