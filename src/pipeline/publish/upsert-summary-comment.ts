import type { Database } from "../../db/database.js";
import { updateRun } from "../../db/runs.js";
import type { Run } from "../../db/schema.js";
import type { GitHubClient, RepoRef } from "../../github/github-client.js";
import { GitHubError } from "../../github/github-error.js";
import { ours } from "./ours.js";
import { fitBody } from "../../github/fit-body.js";
import { SUMMARY_MARKER } from "../../text/labels.js";
import { sameBody, writeOnce } from "./write-once.js";

/** One summary comment per PR: found by its stored id or hidden marker, edited in place only when it changed. */
export async function upsertSummaryComment(
  db: Database,
  github: GitHubClient,
  ref: RepoRef,
  run: Run,
  body: string,
): Promise<void> {
  let commentId = run.summaryCommentId ?? undefined;
  let current: string | undefined;
  if (commentId === undefined) {
    const mine = (await ours(github, github.listIssueComments(ref, run.prNumber))).find((c) =>
      c.body.startsWith(SUMMARY_MARKER),
    );
    commentId = mine?.id;
    current = mine?.body;
  }
  if (commentId !== undefined && current === body) return;
  if (commentId !== undefined) {
    try {
      await github.updateIssueComment(ref, commentId, body);
      if (run.summaryCommentId !== commentId) await updateRun(db, run.id, { summaryCommentId: commentId });
      return;
    } catch (error) {
      if (!(error instanceof GitHubError) || error.kind !== "not-found") throw error;
      // someone deleted it: post a new one
    }
  }
  // A lost answer may hide a comment that landed: found by its marker, it is edited, not posted twice.
  const id = await writeOnce(
    () => github.createIssueComment(ref, run.prNumber, body),
    async () => {
      const landed = (await ours(github, github.listIssueComments(ref, run.prNumber))).find((c) =>
        c.body.startsWith(SUMMARY_MARKER),
      );
      if (landed && !sameBody(landed.body, fitBody(body))) await github.updateIssueComment(ref, landed.id, body);
      return landed?.id;
    },
  );
  await updateRun(db, run.id, { summaryCommentId: id });
}
