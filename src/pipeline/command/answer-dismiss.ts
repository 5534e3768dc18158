import { listFindings, updateFinding } from "../../db/findings.js";
import type { Run } from "../../db/schema.js";
import type { Command } from "../../domain/command.js";
import { findingId } from "../../domain/finding-id.js";
import { pullRequestAnchor } from "../../domain/pull-request-anchor.js";
import { readRepoConfig } from "../job/read-repo-config.js";
import { refreshVerdict } from "../publish/refresh-verdict.js";
import type { CommandCall } from "./command-call.js";

/** `/no-mistakes dismiss NM-n [reason]`: the finding is dismissed for this PR, and the verdict refreshed without it. */
export async function answerDismiss(
  { deps, job, github, ref, reply }: CommandCall,
  run: Run,
  command: Extract<Command, { kind: "dismiss" }>,
): Promise<void> {
  const finding = (await listFindings(deps.db, run.id)).find((f) => f.number === command.finding);
  if (command.finding === undefined || !finding) {
    return reply(
      `@${job.author} There is no finding ${command.finding !== undefined ? findingId(command.finding) : "with that id"} in this pull request. \`/no-mistakes status\` lists them.`,
    );
  }
  await updateFinding(
    deps.db,
    run.id,
    finding.number,
    { status: "dismissed", dismissReason: command.reason ?? null },
    {
      kind: "dismissed",
      actor: job.author,
      detail: command.reason ?? null,
      url: pullRequestAnchor.issueComment(job.commentId),
    },
  );
  // The summary (with its state line) and the last reviewed head's check run: a dismissed finding no longer blocks.
  const { config, problems } = await readRepoConfig(github, ref);
  await refreshVerdict(deps.db, github, ref, run, config, problems);
  return reply(
    `@${job.author} Dismissed ${findingId(finding.number)}; it will not be raised again in this pull request.`,
  );
}
