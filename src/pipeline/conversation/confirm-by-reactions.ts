import type { Logger } from "pino";
import { standing } from "../ledger/standing.js";
import type { Database } from "../../db/database.js";
import { listFindings, updateFinding } from "../../db/findings.js";
import { pullRequestAnchor } from "../../domain/pull-request-anchor.js";
import type { RunContext } from "../job/run-context.js";
import { refreshVerdict } from "../publish/refresh-verdict.js";
import { awaitingMaintainer, confirmPatch } from "../ledger/ruling-state.js";

/**
 * Rulings awaiting a maintainer that a writer confirmed with a 👍 on the bot's ruling reply. GitHub sends
 * no webhook for reactions, so every job of the run looks (one request per awaiting finding).
 */
export async function confirmByReactions(deps: { db: Database; log: Logger }, ctx: RunContext): Promise<void> {
  const { run, github, ref } = ctx;
  const runId = run.id;
  const awaiting = (await listFindings(deps.db, runId)).filter(
    (f) => awaitingMaintainer(f) && f.rulingReplyId !== null,
  );
  if (awaiting.length === 0) return;
  let confirmed = 0;
  for (const finding of awaiting) {
    const thumbs = (await github.listReviewCommentReactions(ref, finding.rulingReplyId!)).filter(
      (r) => r.content === "+1" && r.userType !== "Bot",
    );
    for (const reaction of thumbs) {
      if (!(await standing(github, ref, run, reaction.login)).writer) continue;
      await updateFinding(deps.db, run.id, finding.number, confirmPatch(finding, reaction.login), {
        kind: "confirmed",
        actor: reaction.login,
        detail: `the ruling ${finding.ruling}, with a 👍`,
        url: pullRequestAnchor.reviewComment(finding.rulingReplyId!),
      });
      deps.log.info({ runId, finding: finding.number, by: reaction.login }, "ruling confirmed by a writer's 👍");
      confirmed++;
      break;
    }
  }
  if (confirmed === 0) return;
  await refreshVerdict(deps.db, github, ref, run, ctx.config, ctx.configProblems);
}
