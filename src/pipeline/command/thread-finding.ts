import type { Database } from "../../db/database.js";
import { listFindings } from "../../db/findings.js";
import type { Finding, Run } from "../../db/schema.js";
import { parseFindingId } from "../../domain/finding-id.js";
import type { GitHubClient, RepoRef } from "../../github/github-client.js";
import { findingMarkerPattern } from "../../text/labels.js";
import { ours } from "../publish/ours.js";

/**
 * The finding whose thread a review comment is in, if any. Only a first comment written by the bot's own
 * user counts (markers can be typed by anyone).
 */
export async function threadFinding(
  db: Database,
  github: GitHubClient,
  ref: RepoRef,
  run: Run,
  threadId: number,
): Promise<Finding | undefined> {
  const root = (await ours(github, github.listPullReviewComments(ref, run.prNumber))).find((c) => c.id === threadId);
  const number = root ? parseFindingId(findingMarkerPattern().exec(root.body)?.[1] ?? "") : undefined;
  if (number === undefined) return undefined;
  return (await listFindings(db, run.id)).find((f) => f.number === number);
}
